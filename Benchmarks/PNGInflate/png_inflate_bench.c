/*
 * Decodes one PNG N times with one library and prints the median time and the process's peak RSS.
 * One mode per process, so ru_maxrss is that mode's own peak. Built and run by
 * Benchmarks/runners/png-inflate; not part of the Iris package.
 *
 *   png_inflate_bench MODE FILE N
 *
 * Modes (all to RGBA8, 8-bit non-interlaced input):
 *   libpng-rows   libpng 1.6, png_read_row one row at a time into one row buffer (as Iris's
 *                 PNGDecoder streams through its shim), transforms to RGBA8.
 *   spng-rows     libspng, SPNG_DECODE_PROGRESSIVE + spng_decode_row into one row buffer.
 *   spng-image    libspng, spng_decode_image of the whole image into one RGBA8 buffer.
 *   zlib-inflate  inflate only: zlib's uncompress() of the concatenated IDAT stream into the
 *                 filtered scanlines (no unfiltering, no RGBA expansion).
 *   deflate-inflate  the same with libdeflate_zlib_decompress().
 *   iris-rows     Iris's own libpng shim (Sources/CIrisShims/png_shim.c) as PNGDecoder drives it:
 *                 the whole-stream inflate (libdeflate, 64 MiB budget, at most 8 MiB of file from
 *                 the first IDAT, libpng reading the result back) where the image fits, else libpng
 *                 streaming; rows to RGBA8 one at a time.
 *
 * The decoding modes read the file through a FILE* (64 KiB stdio buffer), so the encoded file is
 * never held whole; the inflate modes hold the concatenated IDAT data and the whole inflated
 * output, which is what a whole-buffer inflater needs. Their timing covers the inflate call
 * alone (the chunk walk is done once, before timing).
 *
 * Output, one line: mode ms_median ms_min peak_rss_kib checksum width height idat_bytes raw_bytes
 * (checksum: CRC-32 of every decoded row, or of the inflated bytes, to check the modes agree).
 */
#define _POSIX_C_SOURCE 200809L
#include <png.h>
#include <spng.h>
#include <libdeflate.h>
#include <zlib.h>
#include "iris_png_shim.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>

static void die(const char *what) {
    fprintf(stderr, "png_inflate_bench: %s\n", what);
    exit(1);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static FILE *open_input(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open the input");
    setvbuf(f, NULL, _IOFBF, 64 * 1024);
    return f;
}

static uint32_t g_width, g_height;
static size_t g_idat_bytes, g_raw_bytes;

/* ---- libpng, row by row ---- */

static uLong decode_libpng_rows(const char *path) {
    FILE *f = open_input(path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) die("libpng: out of memory");
    png_bytep row = NULL;
    if (setjmp(png_jmpbuf(png))) die("libpng: decode failed");
    png_init_io(png, f);
    png_read_info(png, info);
    int color_type = png_get_color_type(png, info);
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) die("interlaced input is not measured");
    png_set_expand(png);   /* palette, low-bit grey and tRNS to 8-bit (RGB)A */
    png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    g_width = png_get_image_width(png, info);
    g_height = png_get_image_height(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)g_width * 4) die("libpng: rows are not RGBA8");
    row = malloc(row_bytes);
    if (!row) die("out of memory");
    uLong crc = crc32(0, Z_NULL, 0);
    for (uint32_t y = 0; y < g_height; y++) {
        png_read_row(png, row, NULL);
        crc = crc32(crc, row, (uInt)row_bytes);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    fclose(f);
    return crc;
}

/* ---- Iris's shim ---- */

static uLong decode_iris_rows(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) die("cannot open the input");
    const uint8_t *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) die("cannot map the input");
    iris_png_reader *reader = iris_png_reader_create(data, (size_t)st.st_size);
    if (!reader) die("iris: out of memory");
    iris_png_info info;
    if (iris_png_read_info(reader, &info) != IRIS_PNG_OK) die("iris: read_info failed");
    if (info.interlaced) die("interlaced input is not measured");
    iris_png_inflate_whole(reader, (size_t)64 << 20, (size_t)8 << 20);
    size_t row_bytes = 0;
    int passes = 0;
    if (iris_png_set_output(reader, IRIS_PNG_OUT_RGBA8, &row_bytes, &passes) != IRIS_PNG_OK) die("iris: set_output failed");
    g_width = info.width;
    g_height = info.height;
    if (row_bytes != (size_t)g_width * 4) die("iris: rows are not RGBA8");
    unsigned char *row = malloc(row_bytes);
    if (!row) die("out of memory");
    uLong crc = crc32(0, Z_NULL, 0);
    for (uint32_t y = 0; y < g_height; y++) {
        if (iris_png_read_rows(reader, row, row_bytes, 1) != IRIS_PNG_OK) die("iris: decode failed");
        crc = crc32(crc, row, (uInt)row_bytes);
    }
    iris_png_reader_destroy(reader);
    free(row);
    munmap((void *)data, (size_t)st.st_size);
    close(fd);
    return crc;
}

/* ---- libspng ---- */

static spng_ctx *spng_open(FILE *f) {
    spng_ctx *ctx = spng_ctx_new(0);
    if (!ctx) die("libspng: out of memory");
    if (spng_set_png_file(ctx, f)) die("libspng: spng_set_png_file failed");
    struct spng_ihdr ihdr;
    int err = spng_get_ihdr(ctx, &ihdr);
    if (err) { fprintf(stderr, "libspng: %s\n", spng_strerror(err)); exit(1); }
    if (ihdr.interlace_method != SPNG_INTERLACE_NONE) die("interlaced input is not measured");
    g_width = ihdr.width;
    g_height = ihdr.height;
    return ctx;
}

static uLong decode_spng_rows(const char *path) {
    FILE *f = open_input(path);
    spng_ctx *ctx = spng_open(f);
    int err = spng_decode_image(ctx, NULL, 0, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS | SPNG_DECODE_PROGRESSIVE);
    if (err) { fprintf(stderr, "libspng: %s\n", spng_strerror(err)); exit(1); }
    size_t row_bytes = (size_t)g_width * 4;
    unsigned char *row = malloc(row_bytes);
    if (!row) die("out of memory");
    uLong crc = crc32(0, Z_NULL, 0);
    uint32_t rows = 0;
    do {
        err = spng_decode_row(ctx, row, row_bytes);
        if (err == 0 || err == SPNG_EOI) { crc = crc32(crc, row, (uInt)row_bytes); rows++; }
    } while (err == 0);
    if (err != SPNG_EOI || rows != g_height) { fprintf(stderr, "libspng: %s\n", spng_strerror(err)); exit(1); }
    spng_ctx_free(ctx);
    free(row);
    fclose(f);
    return crc;
}

static uLong decode_spng_image(const char *path) {
    FILE *f = open_input(path);
    spng_ctx *ctx = spng_open(f);
    size_t size;
    if (spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size)) die("libspng: spng_decoded_image_size failed");
    unsigned char *image = malloc(size);
    if (!image) die("out of memory");
    int err = spng_decode_image(ctx, image, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    if (err) { fprintf(stderr, "libspng: %s\n", spng_strerror(err)); exit(1); }
    size_t row_bytes = (size_t)g_width * 4;
    uLong crc = crc32(0, Z_NULL, 0);
    for (uint32_t y = 0; y < g_height; y++) crc = crc32(crc, image + y * row_bytes, (uInt)row_bytes);
    spng_ctx_free(ctx);
    free(image);
    fclose(f);
    return crc;
}

/* ---- inflate only: the IDAT stream, concatenated by a plain chunk walk ---- */

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads the file's IDAT data into one buffer; sets the size of the inflated scanlines. */
static unsigned char *read_idat(const char *path) {
    static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    FILE *f = open_input(path);
    unsigned char head[8];
    if (fread(head, 1, 8, f) != 8 || memcmp(head, signature, 8)) die("not a PNG");
    unsigned char *idat = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (fread(head, 1, 8, f) != 8) die("truncated PNG");
        uint32_t length = be32(head);
        if (!memcmp(head + 4, "IHDR", 4)) {
            unsigned char ihdr[13];
            if (length != 13 || fread(ihdr, 1, 13, f) != 13) die("bad IHDR");
            g_width = be32(ihdr);
            g_height = be32(ihdr + 4);
            unsigned depth = ihdr[8], color = ihdr[9];
            unsigned channels = color == 0 ? 1 : color == 2 ? 3 : color == 3 ? 1 : color == 4 ? 2 : 4;
            if (ihdr[12] != 0) die("interlaced input is not measured");
            g_raw_bytes = (size_t)g_height * (1 + ((size_t)g_width * channels * depth + 7) / 8);
            length = 0;
        } else if (!memcmp(head + 4, "IDAT", 4)) {
            if (size + length > capacity) {
                capacity = (size + length) * 2;
                idat = realloc(idat, capacity);
                if (!idat) die("out of memory");
            }
            if (fread(idat + size, 1, length, f) != length) die("truncated IDAT");
            size += length;
            length = 0;
        } else if (!memcmp(head + 4, "IEND", 4)) {
            break;
        }
        if (fseek(f, (long)length + 4, SEEK_CUR)) die("truncated PNG"); /* the rest of the chunk and its CRC */
    }
    fclose(f);
    g_idat_bytes = size;
    return idat;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s libpng-rows|iris-rows|spng-rows|spng-image|zlib-inflate|deflate-inflate FILE N\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    int n = atoi(argv[3]);
    if (n < 1) die("N must be at least 1");
    double *times = malloc(sizeof(double) * n);
    uLong crc = 0;

    if (!strcmp(mode, "zlib-inflate") || !strcmp(mode, "deflate-inflate")) {
        unsigned char *idat = read_idat(path);
        unsigned char *raw = malloc(g_raw_bytes);
        if (!raw) die("out of memory");
        struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
        if (!d) die("libdeflate: out of memory");
        int use_zlib = !strcmp(mode, "zlib-inflate");
        for (int i = 0; i < n; i++) {
            double t0 = now_ms();
            size_t produced;
            if (use_zlib) {
                uLongf out = g_raw_bytes;
                if (uncompress(raw, &out, idat, g_idat_bytes) != Z_OK) die("zlib: uncompress failed");
                produced = out;
            } else {
                if (libdeflate_zlib_decompress(d, idat, g_idat_bytes, raw, g_raw_bytes, &produced) != LIBDEFLATE_SUCCESS)
                    die("libdeflate: decompress failed");
            }
            times[i] = now_ms() - t0;
            if (produced != g_raw_bytes) die("inflated size is not the image's");
        }
        crc = crc32(0, Z_NULL, 0);
        for (size_t off = 0; off < g_raw_bytes; off += 1u << 30) {
            size_t len = g_raw_bytes - off < (1u << 30) ? g_raw_bytes - off : (1u << 30);
            crc = crc32(crc, raw + off, (uInt)len);
        }
        libdeflate_free_decompressor(d);
        free(raw);
        free(idat);
    } else {
        uLong (*decode)(const char *) = !strcmp(mode, "libpng-rows") ? decode_libpng_rows
                                      : !strcmp(mode, "iris-rows")   ? decode_iris_rows
                                      : !strcmp(mode, "spng-rows")   ? decode_spng_rows
                                      : !strcmp(mode, "spng-image")  ? decode_spng_image
                                                                     : NULL;
        if (!decode) die("unknown mode");
        for (int i = 0; i < n; i++) {
            double t0 = now_ms();
            crc = decode(path);
            times[i] = now_ms() - t0;
        }
    }

    double min = times[0];
    for (int i = 1; i < n; i++) if (times[i] < min) min = times[i];
    qsort(times, n, sizeof(double), cmp_double);
    double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%s %.2f %.2f %ld %08lx %u %u %zu %zu\n", mode, median, min, usage.ru_maxrss, crc, g_width, g_height,
           g_idat_bytes, g_raw_bytes);
    free(times);
    return 0;
}
