#include "CCourierImageCodecs.h"
#include "png_errors.h"
#include "result.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The growing output buffer and the message of the error that longjmp'd.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int out_of_memory;
    char message[COURIER_PNG_MESSAGE_SIZE];
} png_write_context;

static void png_write_to_memory(png_structp png, png_bytep data, size_t length) {
    png_write_context *context = png_get_io_ptr(png);
    if (length > context->capacity - context->count) {
        size_t capacity = context->capacity ? context->capacity : 4096;
        while (capacity - context->count < length) capacity *= 2;
        uint8_t *grown = realloc(context->bytes, capacity);
        if (grown == NULL) {
            context->out_of_memory = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        context->bytes = grown;
        context->capacity = capacity;
    }
    memcpy(context->bytes + context->count, data, length);
    context->count += length;
}

static void png_flush_nothing(png_structp png) { (void)png; }

courier_image_status courier_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                                        courier_image_result *result) {
    courier_result_reset(result);
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) {
        return courier_result_fail(result, COURIER_IMAGE_CORRUPT, "cannot encode %u x %u pixels", width, height);
    }
    png_write_context context = {NULL, 0, 0, 0, {0}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, context.message, courier_png_on_error,
                                              courier_png_on_warning);
    if (png == NULL) return courier_result_fail(result, COURIER_IMAGE_OUT_OF_MEMORY, "png_create_write_struct");
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return courier_result_fail(result, COURIER_IMAGE_OUT_OF_MEMORY, "png_create_info_struct");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(context.bytes);
        return courier_result_fail(result,
                                   context.out_of_memory ? COURIER_IMAGE_OUT_OF_MEMORY : COURIER_IMAGE_CORRUPT, "%s",
                                   context.message);
    }
    png_set_write_fn(png, &context, png_write_to_memory, png_flush_nothing);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    size_t stride = (size_t)width * 4;
    for (uint32_t row = 0; row < height; row++) {
        png_write_row(png, rgba + (size_t)row * stride);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    result->width = width;
    result->height = height;
    result->bytes = context.bytes;
    result->byte_count = context.count;
    return COURIER_IMAGE_OK;
}
