#include "CCourierImageCodecs.h"
#include "png_errors.h"
#include "result.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// What libpng's callbacks share: the input, and the message of the error that longjmp'd.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char message[COURIER_PNG_MESSAGE_SIZE];
} png_read_context;

static void png_read_from_memory(png_structp png, png_bytep out, size_t length) {
    png_read_context *context = png_get_io_ptr(png);
    if (length > context->size - context->offset) png_error(png, "truncated PNG");
    memcpy(out, context->data + context->offset, length);
    context->offset += length;
}

courier_image_status courier_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                        uint8_t *destination, size_t destination_size,
                                        courier_image_result *result) {
    courier_result_reset(result);
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "no PNG signature");
    }
    // The first chunk must be IHDR: its size is checked before libpng allocates anything, even for
    // a file cut short after it.
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint64_t width = (uint64_t)data[16] << 24 | (uint64_t)data[17] << 16 | (uint64_t)data[18] << 8 | data[19];
        uint64_t height = (uint64_t)data[20] << 24 | (uint64_t)data[21] << 16 | (uint64_t)data[22] << 8 | data[23];
        if (width > 0 && height > 0) {
            courier_image_status status = courier_result_check_size(result, width, height, max_pixels);
            if (status != COURIER_IMAGE_OK) return status;
        }
    }
    png_read_context context = {data, size, 0, {0}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context.message, courier_png_on_error,
                                             courier_png_on_warning);
    if (png == NULL) return courier_result_fail(result, COURIER_IMAGE_OUT_OF_MEMORY, "png_create_read_struct");
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return courier_result_fail(result, COURIER_IMAGE_OUT_OF_MEMORY, "png_create_info_struct");
    }
    // Assigned after setjmp, read after a longjmp: volatile, so the compiler keeps it in memory.
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        courier_image_status status =
            strstr(context.message, "user limit") != NULL ? COURIER_IMAGE_TOO_LARGE : COURIER_IMAGE_CORRUPT;
        return courier_result_fail(result, status, "%s", context.message);
    }
    // libpng's own limits, so that it rejects an oversized header before allocating anything.
    uint32_t dimension_limit = max_pixels < 0x7fffffffu ? (uint32_t)(max_pixels > 0 ? max_pixels : 1) : 0x7fffffffu;
    png_set_user_limits(png, dimension_limit, dimension_limit);
    png_set_chunk_malloc_max(png, 16u << 20);
    png_set_read_fn(png, &context, png_read_from_memory);
    png_read_info(png, info);

    courier_image_status status =
        courier_result_check_size(result, png_get_image_width(png, info), png_get_image_height(png, info), max_pixels);
    if (status != COURIER_IMAGE_OK || !courier_result_has_destination(result, destination, destination_size)) {
        png_destroy_read_struct(&png, &info, NULL);
        return result->status;
    }
    // Everything to 8-bit RGBA: palettes and low-bit gray expanded, tRNS to alpha, 16 bits
    // stripped, gray to RGB, an opaque alpha added where there is none.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)result->width * 4;
    if (png_get_rowbytes(png, info) != stride) png_error(png, "unexpected row layout after conversion");

    rows = malloc(sizeof(png_bytep) * result->height);
    if (rows == NULL) png_error(png, "out of memory for row pointers");
    for (uint32_t row = 0; row < result->height; row++) rows[row] = destination + (size_t)row * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return COURIER_IMAGE_OK;
}
