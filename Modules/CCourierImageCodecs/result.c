#include "CCourierImageCodecs.h"
#include "result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void courier_image_free(void *bytes) { free(bytes); }

void courier_result_reset(courier_image_result *result) {
    memset(result, 0, sizeof *result);
}

courier_image_status courier_result_fail(courier_image_result *result, courier_image_status status,
                                         const char *format, ...) {
    free(result->bytes);
    result->bytes = NULL;
    result->byte_count = 0;
    result->status = status;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof result->message, format, arguments);
    va_end(arguments);
    return status;
}

courier_image_status courier_result_check_size(courier_image_result *result, uint64_t width,
                                               uint64_t height, uint64_t max_pixels) {
    if (width == 0 || height == 0) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "image of %llu x %llu pixels",
                                   (unsigned long long)width, (unsigned long long)height);
    }
    // width and height come from 32-bit fields, so the product cannot overflow 64 bits.
    if (width * height > max_pixels || width * height * 4 > (uint64_t)SIZE_MAX) {
        return courier_result_fail(result, COURIER_IMAGE_TOO_LARGE,
                                   "%llu x %llu pixels is over the limit of %llu",
                                   (unsigned long long)width, (unsigned long long)height,
                                   (unsigned long long)max_pixels);
    }
    result->width = (uint32_t)width;
    result->height = (uint32_t)height;
    return COURIER_IMAGE_OK;
}

int courier_result_has_destination(courier_image_result *result, const uint8_t *destination,
                                   size_t destination_size) {
    if (destination == NULL) return 0;
    size_t expected = (size_t)result->width * result->height * 4;
    if (destination_size != expected) {
        courier_result_fail(result, COURIER_IMAGE_CORRUPT, "destination of %zu bytes for %u x %u pixels",
                            destination_size, result->width, result->height);
        return 0;
    }
    return 1;
}
