#include "CCourierImageCodecs.h"
#include "result.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
// jpeglib.h needs FILE and size_t declared first.
#include <jerror.h>
#include <jpeglib.h>

// libjpeg's error manager first, so that the library's pointer to it is a pointer to this.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} jpeg_context;

static void jpeg_on_error(j_common_ptr info) {
    jpeg_context *context = (jpeg_context *)info->err;
    (*info->err->format_message)(info, context->message);
    longjmp(context->jump, 1);
}

// Level -1 is a warning about corrupt data: libjpeg pads a truncated file with gray and goes on.
// Courier fails instead, so that a damaged file never comes back as a plausible image.
static void jpeg_on_message(j_common_ptr info, int level) {
    if (level < 0) jpeg_on_error(info);
}

courier_image_status courier_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint32_t minimum_longest_side, uint8_t *destination,
                                         size_t destination_size, courier_image_result *result) {
    courier_result_reset(result);
    if (size < 3 || data[0] != 0xff || data[1] != 0xd8 || data[2] != 0xff) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "no JPEG signature");
    }
    struct jpeg_decompress_struct info;
    jpeg_context context;
    info.err = jpeg_std_error(&context.manager);
    context.manager.error_exit = jpeg_on_error;
    context.manager.emit_message = jpeg_on_message;
    if (setjmp(context.jump)) {
        int code = context.manager.msg_code;
        jpeg_destroy_decompress(&info);
        courier_image_status status = code == JERR_OUT_OF_MEMORY ? COURIER_IMAGE_TOO_LARGE
                                      : code == JERR_CONVERSION_NOTIMPL ? COURIER_IMAGE_UNSUPPORTED
                                                                         : COURIER_IMAGE_CORRUPT;
        return courier_result_fail(result, status, "%s", context.message);
    }
    jpeg_create_decompress(&info);
    // Bounds libjpeg's own working memory (a progressive file buffers every coefficient).
    info.mem->max_memory_to_use = 512L << 20;
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);

    uint32_t longest = info.image_width > info.image_height ? info.image_width : info.image_height;
    unsigned scale_denominator = 1;
    if (minimum_longest_side > 0) {
        for (unsigned candidate = 8; candidate > 1; candidate /= 2) {
            if ((longest + candidate - 1) / candidate >= minimum_longest_side) {
                scale_denominator = candidate;
                break;
            }
        }
    }

    // The source size, before anything is allocated for it: a downsampled decode may read an image
    // denominator² times larger than the pixel limit, since it never holds it whole.
    uint64_t source_limit = max_pixels * scale_denominator * scale_denominator;
    if (source_limit / scale_denominator / scale_denominator != max_pixels) source_limit = UINT64_MAX;
    courier_image_status status = courier_result_check_size(result, info.image_width, info.image_height, source_limit);
    if (status != COURIER_IMAGE_OK) {
        jpeg_destroy_decompress(&info);
        return status;
    }
    info.out_color_space = JCS_EXT_RGBA;
    info.scale_num = 1;
    info.scale_denom = scale_denominator;
    jpeg_calc_output_dimensions(&info);
    status = courier_result_check_size(result, info.output_width, info.output_height, max_pixels);
    if (status != COURIER_IMAGE_OK || !courier_result_has_destination(result, destination, destination_size)) {
        jpeg_destroy_decompress(&info);
        return result->status;
    }
    size_t stride = (size_t)result->width * 4;
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = destination + (size_t)info.output_scanline * stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return COURIER_IMAGE_OK;
}
