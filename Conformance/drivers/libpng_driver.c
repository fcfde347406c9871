/*
 * libpng_driver.c: one PNG request through the system's libpng (and its zlib), for the
 * conformance peers (Conformance/drivers/libpng_driver.py speaks the JSON protocol and runs
 * this program once per request).
 *
 * Build (run_peers.py does it): cc -O2 -o libpng_driver libpng_driver.c $(pkg-config --cflags --libs libpng) -lz
 *
 *   libpng_driver version                  prints "libpng VERSION zlib VERSION"
 *   libpng_driver decode < FILE.png        reads the file twice with libpng's own API
 *   libpng_driver encode W H COLORTYPE BITDEPTH < PIXELS
 *
 * Output, for the shim: any number of "warning TEXT\n" lines (libpng's warnings, in order),
 * then exactly one of
 *   "error TEXT\n"                                           libpng called its error handler
 *   "unsupported TEXT\n"                                     a request libpng's API cannot take
 *   "decoded W H CT BD INTERLACED RGBADEPTH NSAMPLES NRGBA\n" then NSAMPLES + NRGBA bytes
 *   "encoded N\n" then the N bytes of the PNG file
 *
 * Decode, first read: no transformation but png_set_packing (1, 2 and 4-bit samples one per
 * byte, values unchanged) and png_set_interlace_handling: the native samples, 16-bit
 * big-endian as libpng gives them. Second read: png_set_expand (palette to RGB, gray below 8
 * bits scaled to 8, tRNS to an alpha channel), png_set_gray_to_rgb, and an opaque alpha
 * filler where the image has no alpha after that: the RGBA conversion. Both reads end with
 * png_read_end, so libpng checks everything up to IEND. libpng keeps its defaults: CRC
 * errors in critical chunks are errors, in ancillary chunks warnings (the chunk is dropped);
 * "benign" errors (an IEND with data, a misplaced or invalid ancillary chunk, too much image
 * data) are warnings; width and height up to its default user limit of 1,000,000. A
 * non-interlaced image is read row by row into a buffer that grows with the rows, so a header
 * that declares a huge image costs no memory before its rows decode.
 *
 * Encode: png_set_compression_level(0), png_set_filter(NONE) and a 1 MiB compression buffer
 * (libpng writes one IDAT per buffer): the library's own options closest to the canonical
 * encoding of Spec/png.md §2.
 */
#include <png.h>
#include <zlib.h>

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char error_text[512];

static void on_error(png_structp png, png_const_charp message) {
    snprintf(error_text, sizeof error_text, "%s", message);
    longjmp(png_jmpbuf(png), 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    printf("warning %s\n", message);
}

struct source {
    const unsigned char *bytes;
    size_t size;
    size_t offset;
};

static void read_bytes(png_structp png, png_bytep out, size_t count) {
    struct source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) {
        /* libpng asked for bytes past the end of the file. */
        png_error(png, "read past the end of the file");
    }
    memcpy(out, source->bytes + source->offset, count);
    source->offset += count;
}

struct sink {
    unsigned char *bytes;
    size_t size;
    size_t capacity;
};

static void write_bytes(png_structp png, png_bytep data, size_t count) {
    struct sink *sink = png_get_io_ptr(png);
    if (sink->size + count > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < sink->size + count) capacity *= 2;
        unsigned char *grown = realloc(sink->bytes, capacity);
        if (grown == NULL) png_error(png, "driver: out of memory for the output");
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->size, data, count);
    sink->size += count;
}

static void flush_nothing(png_structp png) { (void)png; }

static unsigned char *read_all(FILE *file, size_t *size) {
    size_t capacity = 1 << 16, used = 0, got;
    unsigned char *bytes = malloc(capacity);
    if (bytes == NULL) return NULL;
    while ((got = fread(bytes + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity) {
            unsigned char *grown = realloc(bytes, capacity *= 2);
            if (grown == NULL) {
                free(bytes);
                return NULL;
            }
            bytes = grown;
        }
    }
    *size = used;
    return bytes;
}

struct image {
    png_uint_32 width, height;
    int color_type, bit_depth, interlaced;
    unsigned char *pixels;
    size_t size;
};

/* One read of the whole file; `rgba` selects the RGBA transformations. Returns 0 and
 * leaves libpng's message in error_text when libpng failed. */
static int read_image(const unsigned char *bytes, size_t size, int rgba, struct image *image) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    if (png == NULL) return snprintf(error_text, sizeof error_text, "driver: no read struct"), 0;
    png_infop info = png_create_info_struct(png);
    png_infop end = png_create_info_struct(png);
    struct source source = {bytes, size, 0};
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, &end);
        return 0;
    }
    png_set_read_fn(png, &source, read_bytes);
    png_read_info(png, info);
    int interlace;
    png_get_IHDR(png, info, &image->width, &image->height, &image->bit_depth, &image->color_type,
                 &interlace, NULL, NULL);
    image->interlaced = interlace == PNG_INTERLACE_ADAM7;
    if (!rgba) {
        if (image->bit_depth < 8) png_set_packing(png);
    } else {
        png_set_expand(png);
        if (!(image->color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
        if (!(image->color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
            png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes == 0) png_error(png, "driver: a row of no bytes");
    if (passes > 1) {
        /* Adam7: libpng fills every row over the passes, so all rows must exist first. */
        if (image->height > SIZE_MAX / row_bytes) png_error(png, "driver: the image does not fit in memory");
        pixels = calloc(image->height, row_bytes);
        rows = malloc(image->height * sizeof(png_bytep));
        if (pixels == NULL || rows == NULL) png_error(png, "driver: out of memory for the image");
        for (png_uint_32 y = 0; y < image->height; y++) rows[y] = pixels + (size_t)y * row_bytes;
        png_read_image(png, rows);
    } else {
        /* One row at a time into a buffer that grows with the rows libpng delivers, so a
         * header that declares a huge image costs memory only for rows that really decode. */
        size_t capacity = 0;
        for (png_uint_32 y = 0; y < image->height; y++) {
            if (((size_t)y + 1) * row_bytes > capacity) {
                size_t wanted = capacity ? capacity * 2 : row_bytes * 16;
                if (wanted < ((size_t)y + 1) * row_bytes) wanted = ((size_t)y + 1) * row_bytes;
                unsigned char *grown = realloc(pixels, wanted);
                if (grown == NULL) png_error(png, "driver: out of memory for the image");
                pixels = grown;
                capacity = wanted;
            }
            png_read_row(png, pixels + (size_t)y * row_bytes, NULL);
        }
    }
    png_read_end(png, end);
    free(rows);
    rows = NULL;
    image->pixels = pixels;
    image->size = (size_t)image->height * row_bytes;
    png_destroy_read_struct(&png, &info, &end);
    return 1;
}

static int decode(void) {
    size_t size;
    unsigned char *bytes = read_all(stdin, &size);
    if (bytes == NULL) return printf("error driver: cannot read the input\n"), 0;
    struct image native, converted;
    if (!read_image(bytes, size, 0, &native)) return printf("error %s\n", error_text), 0;
    if (!read_image(bytes, size, 1, &converted)) return printf("error %s\n", error_text), 0;
    printf("decoded %u %u %d %d %d %d %zu %zu\n", native.width, native.height, native.color_type,
           native.bit_depth, native.interlaced, native.bit_depth == 16 ? 16 : 8, native.size,
           converted.size);
    fwrite(native.pixels, 1, native.size, stdout);
    fwrite(converted.pixels, 1, converted.size, stdout);
    return 0;
}

static int channels_of(int color_type) {
    switch (color_type) {
        case PNG_COLOR_TYPE_GRAY: return 1;
        case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
        case PNG_COLOR_TYPE_RGB: return 3;
        case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
        default: return 0;
    }
}

static int encode(unsigned long long width, unsigned long long height, int color_type, int bit_depth) {
    size_t size;
    unsigned char *pixels = read_all(stdin, &size);
    if (pixels == NULL) return printf("error driver: cannot read the input\n"), 0;
    if (width > 0xFFFFFFFFull || height > 0xFFFFFFFFull)
        return printf("unsupported libpng takes width and height as 32-bit integers\n"), 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png_create_info_struct(png);
    struct sink sink = {NULL, 0, 0};
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        printf("error %s\n", error_text);
        free(rows);
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_write_fn(png, &sink, write_bytes, flush_nothing);
    /* png_set_IHDR checks the header (png_check_IHDR) and calls the error handler. */
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, bit_depth, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    unsigned long long row_bytes, expected;
    if (__builtin_mul_overflow(width, (unsigned long long)channels_of(color_type) * (bit_depth / 8), &row_bytes) ||
        __builtin_mul_overflow(row_bytes, height, &expected) || expected != size) {
        printf("unsupported libpng's API takes row pointers, not a buffer and its length: "
               "%zu bytes cannot be the rows of a %llux%llu image\n", size, width, height);
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_compression_level(png, 0);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_buffer_size(png, 1 << 20);
    png_write_info(png, info);
    rows = malloc((height ? height : 1) * sizeof(png_bytep));
    if (rows == NULL) png_error(png, "driver: out of memory for the rows");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_write_image(png, rows);
    png_write_end(png, NULL);
    printf("encoded %zu\n", sink.size);
    fwrite(sink.bytes, 1, sink.size, stdout);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "version") == 0) {
        printf("libpng %s zlib %s\n", png_get_libpng_ver(NULL), zlibVersion());
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "decode") == 0) return decode();
    if (argc == 6 && strcmp(argv[1], "encode") == 0)
        return encode(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10), atoi(argv[4]),
                      atoi(argv[5]));
    fprintf(stderr, "usage: libpng_driver version | decode < FILE | encode W H COLORTYPE BITDEPTH < PIXELS\n");
    return 2;
}
