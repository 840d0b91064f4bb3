#ifndef CCOURIER_PNG_ERRORS_H
#define CCOURIER_PNG_ERRORS_H

#include <png.h>

// libpng's error and warning callbacks for both directions. The error pointer is a char buffer of
// COURIER_PNG_MESSAGE_SIZE bytes that receives the message before the longjmp.
#define COURIER_PNG_MESSAGE_SIZE 160

void courier_png_on_error(png_structp png, png_const_charp message);
// Warnings (benign problems such as a bad ancillary chunk) do not stop the codec.
void courier_png_on_warning(png_structp png, png_const_charp message);

#endif
