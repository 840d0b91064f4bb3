#include "png_errors.h"

#include <stdio.h>

void courier_png_on_error(png_structp png, png_const_charp message) {
    char *buffer = png_get_error_ptr(png);
    snprintf(buffer, COURIER_PNG_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

void courier_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}
