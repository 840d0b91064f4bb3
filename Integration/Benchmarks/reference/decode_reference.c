/*
 * The in-run reference for `ci/bench images`: plain C decoding on the same libraries as
 * CourierImageDecoding (libpng, libjpeg-turbo, libwebp), to the same 8-bit RGBA output.
 *
 *   decode_reference make-inputs DIR        writes DIR/bench.png, bench.jpg and bench.webp: one
 *                                           2048 x 1536 synthetic photo (gradients and noise)
 *   decode_reference decode FILE ITERATIONS decodes FILE ITERATIONS times and prints
 *                                           seconds=S cpu_us=U pixel_bytes=B
 */
#include <png.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <webp/decode.h>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
#include <webp/encode.h>

enum { WIDTH = 2048, HEIGHT = 1536 };

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec + time.tv_nsec / 1e9;
}

static double cpu_microseconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void fail(const char *what) {
    fprintf(stderr, "decode_reference: %s\n", what);
    exit(1);
}

static unsigned char *synthetic_rgba(void) {
    unsigned char *pixels = malloc((size_t)WIDTH * HEIGHT * 4);
    if (!pixels) fail("out of memory");
    unsigned state = 12345;
    for (size_t y = 0; y < HEIGHT; y++) {
        for (size_t x = 0; x < WIDTH; x++) {
            state = state * 1103515245u + 12345u;
            unsigned noise = (state >> 16) & 15;
            unsigned char *p = pixels + (y * WIDTH + x) * 4;
            p[0] = (unsigned char)(x * 255 / WIDTH + noise);
            p[1] = (unsigned char)(y * 255 / HEIGHT + noise);
            p[2] = (unsigned char)((x + y) / 16 + noise);
            p[3] = 255;
        }
    }
    return pixels;
}

static void write_file(const char *path, const unsigned char *bytes, size_t count) {
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(bytes, 1, count, file) != count || fclose(file) != 0) fail(path);
}

static void make_inputs(const char *directory) {
    unsigned char *rgba = synthetic_rgba();
    char path[4096];

    snprintf(path, sizeof path, "%s/bench.png", directory);
    FILE *file = fopen(path, "wb");
    if (!file) fail(path);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) fail("png encode");
    png_init_io(png, file);
    png_set_IHDR(png, info, WIDTH, HEIGHT, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < HEIGHT; y++) png_write_row(png, rgba + y * WIDTH * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(file);

    snprintf(path, sizeof path, "%s/bench.jpg", directory);
    file = fopen(path, "wb");
    if (!file) fail(path);
    struct jpeg_compress_struct jpeg;
    struct jpeg_error_mgr errors;
    jpeg.err = jpeg_std_error(&errors);
    jpeg_create_compress(&jpeg);
    jpeg_stdio_dest(&jpeg, file);
    jpeg.image_width = WIDTH;
    jpeg.image_height = HEIGHT;
    jpeg.input_components = 4;
    jpeg.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&jpeg);
    jpeg_set_quality(&jpeg, 85, TRUE);
    jpeg_start_compress(&jpeg, TRUE);
    while (jpeg.next_scanline < HEIGHT) {
        JSAMPROW row = rgba + (size_t)jpeg.next_scanline * WIDTH * 4;
        jpeg_write_scanlines(&jpeg, &row, 1);
    }
    jpeg_finish_compress(&jpeg);
    jpeg_destroy_compress(&jpeg);
    fclose(file);

    snprintf(path, sizeof path, "%s/bench.webp", directory);
    uint8_t *webp = NULL;
    size_t webp_size = WebPEncodeRGBA(rgba, WIDTH, HEIGHT, WIDTH * 4, 85, &webp);
    if (webp_size == 0) fail("webp encode");
    write_file(path, webp, webp_size);
    WebPFree(webp);
    free(rgba);
}

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} source;

static void read_memory(png_structp png, png_bytep out, size_t length) {
    source *from = png_get_io_ptr(png);
    if (length > from->size - from->offset) png_error(png, "truncated");
    memcpy(out, from->data + from->offset, length);
    from->offset += length;
}

static size_t decode_png(const unsigned char *data, size_t size) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) fail("png decode");
    source from = {data, size, 0};
    png_set_read_fn(png, &from, read_memory);
    png_read_info(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    pixels = malloc(width * height * 4);
    rows = malloc(height * sizeof(png_bytep));
    for (size_t y = 0; y < height; y++) rows[y] = pixels + y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(pixels);
    return width * height * 4;
}

static size_t decode_jpeg(const unsigned char *data, size_t size) {
    struct jpeg_decompress_struct jpeg;
    struct jpeg_error_mgr errors;
    jpeg.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&jpeg);
    jpeg_mem_src(&jpeg, data, size);
    jpeg_read_header(&jpeg, TRUE);
    jpeg.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&jpeg);
    size_t stride = (size_t)jpeg.output_width * 4;
    unsigned char *pixels = malloc(stride * jpeg.output_height);
    while (jpeg.output_scanline < jpeg.output_height) {
        JSAMPROW row = pixels + (size_t)jpeg.output_scanline * stride;
        jpeg_read_scanlines(&jpeg, &row, 1);
    }
    size_t count = stride * jpeg.output_height;
    jpeg_finish_decompress(&jpeg);
    jpeg_destroy_decompress(&jpeg);
    free(pixels);
    return count;
}

static size_t decode_webp(const unsigned char *data, size_t size) {
    int width = 0, height = 0;
    if (!WebPGetInfo(data, size, &width, &height)) fail("webp info");
    size_t count = (size_t)width * height * 4;
    unsigned char *pixels = malloc(count);
    if (!WebPDecodeRGBAInto(data, size, pixels, count, width * 4)) fail("webp decode");
    free(pixels);
    return count;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "make-inputs") == 0) {
        make_inputs(argv[2]);
        return 0;
    }
    if (argc != 4 || strcmp(argv[1], "decode") != 0) fail("usage: make-inputs DIR | decode FILE ITERATIONS");
    FILE *file = fopen(argv[2], "rb");
    if (!file) fail(argv[2]);
    fseek(file, 0, SEEK_END);
    size_t size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc(size);
    if (fread(data, 1, size, file) != size) fail("read");
    fclose(file);
    const char *extension = strrchr(argv[2], '.');
    size_t (*decode)(const unsigned char *, size_t) =
        strcmp(extension, ".png") == 0 ? decode_png : strcmp(extension, ".jpg") == 0 ? decode_jpeg : decode_webp;
    long iterations = atol(argv[3]);
    size_t pixel_bytes = 0;
    double cpu = cpu_microseconds(), start = now_seconds();
    for (long i = 0; i < iterations; i++) pixel_bytes += decode(data, size);
    printf("seconds=%.6f cpu_us=%.0f pixel_bytes=%zu\n", now_seconds() - start, cpu_microseconds() - cpu, pixel_bytes);
    free(data);
    return 0;
}
