#ifndef CCOURIER_IMAGE_CODECS_H
#define CCOURIER_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

// One C function per codec and direction. libpng and libjpeg report errors by longjmp; each
// function below owns its setjmp, so a longjmp never crosses a Swift frame. Every function fills a
// courier_image_result and returns its status.
//
// A decoder called with a NULL destination reads the header only: it checks the limits and sets
// width and height. Called again with a destination of exactly width * height * 4 bytes, it
// decodes RGBA rows, top to bottom, into it. The caller's buffer is then the image's own storage:
// no second buffer, no copy.

typedef enum {
    COURIER_IMAGE_OK = 0,
    COURIER_IMAGE_CORRUPT = 1,       // not a valid image of the format, truncated, or bad data
    COURIER_IMAGE_TOO_LARGE = 2,     // over the pixel limit (checked before any pixel allocation)
    COURIER_IMAGE_OUT_OF_MEMORY = 3, // an allocation failed
    COURIER_IMAGE_UNSUPPORTED = 4,   // a valid file of a kind this shim does not decode (animation)
} courier_image_status;

typedef struct {
    courier_image_status status;
    uint32_t width;
    uint32_t height;
    // Encoding only: the encoded file, allocated with malloc; the caller frees it with
    // courier_image_free. Decoders write into the caller's destination instead.
    uint8_t *bytes;
    size_t byte_count;
    char message[160];
} courier_image_result;

// Decodes a PNG to RGBA8 (palette, gray, 16-bit and interlaced images are converted).
courier_image_status courier_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                        uint8_t *destination, size_t destination_size,
                                        courier_image_result *result);

// Decodes a baseline or progressive JPEG to RGBA8. With minimum_longest_side > 0 it scales down
// by the largest of 1/8, 1/4 and 1/2 (the DCT's own scaling, nearly free) that keeps the longest
// side at least that long. Corrupt-data warnings (libjpeg pads a truncated file with gray and
// warns) are errors here.
courier_image_status courier_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint32_t minimum_longest_side, uint8_t *destination,
                                         size_t destination_size, courier_image_result *result);

// Decodes a still WebP (lossy or lossless, with or without alpha) to RGBA8.
courier_image_status courier_webp_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint8_t *destination, size_t destination_size,
                                         courier_image_result *result);

// Encodes RGBA8 pixels as an 8-bit RGBA PNG.
courier_image_status courier_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                                        courier_image_result *result);

void courier_image_free(void *bytes);

#endif
