#ifndef CCOURIER_IMAGE_RESULT_H
#define CCOURIER_IMAGE_RESULT_H

#include "CCourierImageCodecs.h"

void courier_result_reset(courier_image_result *result);
courier_image_status courier_result_fail(courier_image_result *result, courier_image_status status,
                                         const char *format, ...)
    __attribute__((format(printf, 3, 4)));
// Records the size, or fails with TOO_LARGE (over max_pixels) or CORRUPT (an empty image).
courier_image_status courier_result_check_size(courier_image_result *result, uint64_t width,
                                               uint64_t height, uint64_t max_pixels);
// Whether a decoder only measures (no destination), or fails when the destination does not match.
// Returns 1 to go on decoding, 0 to return result->status.
int courier_result_has_destination(courier_image_result *result, const uint8_t *destination,
                                   size_t destination_size);

#endif
