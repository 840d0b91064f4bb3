#include "CCourierImageCodecs.h"
#include "result.h"

#include <webp/decode.h>

courier_image_status courier_webp_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint8_t *destination, size_t destination_size,
                                         courier_image_result *result) {
    courier_result_reset(result);
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(data, size, &features);
    if (code == VP8_STATUS_NOT_ENOUGH_DATA) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "truncated WebP header");
    }
    if (code != VP8_STATUS_OK) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "not a WebP image (status %d)", (int)code);
    }
    if (features.has_animation) {
        return courier_result_fail(result, COURIER_IMAGE_UNSUPPORTED, "animated WebP");
    }
    if (features.width <= 0 || features.height <= 0) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "WebP of %d x %d pixels", features.width,
                                   features.height);
    }
    courier_image_status status =
        courier_result_check_size(result, (uint64_t)features.width, (uint64_t)features.height, max_pixels);
    if (status != COURIER_IMAGE_OK) return status;
    if (!courier_result_has_destination(result, destination, destination_size)) return result->status;
    size_t stride = (size_t)result->width * 4;
    if (WebPDecodeRGBAInto(data, size, destination, destination_size, (int)stride) == NULL) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "WebP data is truncated or corrupt");
    }
    return COURIER_IMAGE_OK;
}
