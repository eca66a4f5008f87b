// libpng 1.6 behind setjmp: see include/iris_png_shim.h.
#include "iris_png_shim.h"

#if __has_include(<png.h>)
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if __has_include(<libdeflate.h>)
#include <libdeflate.h>
#define IRIS_PNG_HAS_LIBDEFLATE 1
#endif

// Image size is bounded by Iris's DecodingLimits (checked before decoding), so libpng's own
// width/height limits are opened to the format's maximum; a 2,000,000×100 strip is legal.
#define IRIS_PNG_MAX_DIMENSION 0x7fffffffU
// Largest ancillary chunk libpng will allocate (iCCP, zTXt, eXIf...). IDAT is streamed (or
// inflated whole within the decoder's budget, iris_png_inflate_whole) and is not bounded by this.
#define IRIS_PNG_CHUNK_MALLOC_MAX (16U * 1024U * 1024U)

// MARK: - Messages

/// libpng's last error, and its last warning: png_check_IHDR warns the specific reason
/// ("Invalid bit depth in IHDR") and then errors with a generic "Invalid IHDR data".
typedef struct {
    char error[256];
    char warning[200];
} iris_png_messages;

static void record_error(png_structp png, png_const_charp message) {
    iris_png_messages *messages = (iris_png_messages *)png_get_error_ptr(png);
    const char *text = message ? message : "unknown libpng error";
    if (strcmp(text, "Invalid IHDR data") == 0 && messages->warning[0]) {
        snprintf(messages->error, sizeof messages->error, "%s: %s", text, messages->warning);
    } else {
        snprintf(messages->error, sizeof messages->error, "%s", text);
    }
    png_longjmp(png, 1);
}

static void record_warning(png_structp png, png_const_charp message) {
    iris_png_messages *messages = (iris_png_messages *)png_get_error_ptr(png);
    snprintf(messages->warning, sizeof messages->warning, "%s", message ? message : "");
}

// MARK: - Reader

struct iris_png_reader {
    iris_png_messages messages;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int truncated;
    /// Status of the first failure; every later call returns it without touching libpng.
    IrisPNGStatus failure;
    int passes;
    uint32_t height;
    /// Set by iris_png_inflate_whole: the image data inflated at once, which libpng then reads
    /// back as stored deflate blocks (whole_stream_*) instead of the file's IDAT chunks.
    uint8_t *inflated;
    size_t inflated_size;
    /// The first IDAT's length (libpng has read its header), the empty stored blocks that lead
    /// the served stream so that it is at least that long, the stream's Adler-32 and the
    /// position libpng has reached in what is served.
    size_t first_idat_length;
    size_t padding_blocks;
    uint32_t adler;
    size_t served;
};

static size_t whole_stream_read(iris_png_reader *reader, uint8_t *out, size_t length);

static void reader_read(png_structp png, png_bytep out, size_t length) {
    iris_png_reader *reader = (iris_png_reader *)png_get_io_ptr(png);
    if (reader->inflated) {
        if (whole_stream_read(reader, out, length) != length) png_error(png, "read past the inflated image data");
        return;
    }
    size_t remaining = reader->size - reader->offset;
    if (length > remaining) {
        reader->offset = reader->size;
        reader->truncated = 1;
        png_error(png, "unexpected end of data");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

iris_png_reader *iris_png_reader_create(const uint8_t *data, size_t size) {
    iris_png_reader *reader = (iris_png_reader *)calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = data;
    reader->size = data ? size : 0;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->messages, record_error, record_warning);
    if (!reader->png) {
        free(reader);
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (!reader->info) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, reader_read);
    png_set_user_limits(reader->png, IRIS_PNG_MAX_DIMENSION, IRIS_PNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(reader->png, IRIS_PNG_CHUNK_MALLOC_MAX);
    return reader;
}

/// Records a failure caught by setjmp and returns its status.
static IrisPNGStatus reader_fail(iris_png_reader *reader) {
    reader->failure = reader->truncated ? IRIS_PNG_TRUNCATED : IRIS_PNG_ERROR;
    return reader->failure;
}

/// Whether every chunk before the first IDAT fits in the data: libpng allocates (and fills) a
/// chunk's whole claimed length before reading it, so a 52-byte file claiming a 2 GB tEXt chunk
/// would cost 2 GB before it is found to be truncated. Nothing past the first IDAT is read
/// whole (image data streams, and the chunks after it are never read), so the walk stops there.
static int header_chunks_fit(const iris_png_reader *reader) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (reader->size < 8 || memcmp(reader->data, signature, 8) != 0) return 1;   /* not a PNG: libpng says so */
    size_t offset = 8;                                   /* after the signature */
    while (reader->size >= offset && reader->size - offset >= 8) {
        const uint8_t *p = reader->data + offset;
        uint32_t length = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
        if (memcmp(p + 4, "IDAT", 4) == 0) return 1;
        if (length > 0x7FFFFFFFU) return 1;               /* invalid: libpng says so itself */
        if ((size_t)length + 12 > reader->size - offset) return 0;
        offset += (size_t)length + 12;
    }
    return 1;
}

IrisPNGStatus iris_png_read_info(iris_png_reader *reader, iris_png_info *info) {
    if (reader->failure != IRIS_PNG_OK) return reader->failure;
    if (!header_chunks_fit(reader)) {
        reader->truncated = 1;
        reader->offset = reader->size;
        reader->failure = IRIS_PNG_TRUNCATED;
        return reader->failure;
    }
    if (setjmp(png_jmpbuf(reader->png))) return reader_fail(reader);
    png_read_info(reader->png, reader->info);
    info->width = png_get_image_width(reader->png, reader->info);
    info->height = png_get_image_height(reader->png, reader->info);
    info->bit_depth = png_get_bit_depth(reader->png, reader->info);
    info->color_type = png_get_color_type(reader->png, reader->info);
    info->interlaced = png_get_interlace_type(reader->png, reader->info) == PNG_INTERLACE_ADAM7;
    info->has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    reader->height = info->height;
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_get_color(iris_png_reader *reader, iris_png_color *color) {
    memset(color, 0, sizeof *color);
    if (reader->failure != IRIS_PNG_OK) return reader->failure;
    if (setjmp(png_jmpbuf(reader->png))) return reader_fail(reader);
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && profile != NULL) {
        color->icc_profile = profile;
        color->icc_profile_size = length;
    }
    int intent = 0;
    if (png_get_sRGB(png, info, &intent)) {
        color->has_srgb = 1;
        color->srgb_intent = intent;
    }
    png_fixed_point gamma = 0;
    if (png_get_gAMA_fixed(png, info, &gamma)) {
        color->has_gamma = 1;
        color->gamma = gamma;
    }
    png_fixed_point c[8];
    if (png_get_cHRM_fixed(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])) {
        color->has_chrm = 1;
        for (int i = 0; i < 8; i++) color->chrm[i] = c[i];
    }
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_set_output(iris_png_reader *reader, IrisPNGOutput output, size_t *row_bytes, int *passes) {
    if (reader->failure != IRIS_PNG_OK) return reader->failure;
    if (setjmp(png_jmpbuf(reader->png))) return reader_fail(reader);
    png_structp png = reader->png;
    png_infop info = reader->info;
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int is_gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
    int has_alpha_channel = (color_type & PNG_COLOR_MASK_ALPHA) != 0;

    // 16 → 8 with rounding (v * 255 / 65535), not truncation.
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);

    switch (output) {
    case IRIS_PNG_OUT_GRAY8:
        if (!is_gray) png_set_rgb_to_gray_fixed(png, 1, -1, -1);
        if (has_alpha_channel) png_set_strip_alpha(png);
        break;
    case IRIS_PNG_OUT_RGBX8:
        if (is_gray) png_set_gray_to_rgb(png);
        if (has_alpha_channel) png_set_strip_alpha(png);
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
        break;
    case IRIS_PNG_OUT_RGBA8:
        if (has_trns) png_set_tRNS_to_alpha(png);
        if (is_gray) png_set_gray_to_rgb(png);
        if (!has_alpha_channel && !has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
        break;
    default:
        png_error(png, "unknown output layout requested");
    }
    reader->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *row_bytes = png_get_rowbytes(png, info);
    *passes = reader->passes;
    return IRIS_PNG_OK;
}

// MARK: - Whole-stream inflate

// libdeflate inflates the image data about twice as fast as zlib, but only a whole stream into
// a whole buffer; libpng has no hook for pre-inflated rows. So the data is inflated at once and
// handed back to libpng as a zlib stream of stored (uncompressed) blocks, which zlib only
// copies: libpng keeps doing everything after inflate (unfiltering, Adam7, palette, tRNS,
// 16-bit, grey expansion), exactly as when it streams. The file's own chunks are checked
// first (their CRCs, and libdeflate the Adler-32), so libpng skips both checks on the copy.

/// Bytes of data in one stored block at most, and of its header (BFINAL/BTYPE, LEN, NLEN).
#define IRIS_STORED_BLOCK_DATA 65535U
#define IRIS_STORED_BLOCK_HEADER 5U

/// The bytes of filtered scanlines (one filter byte a row) of `width`×`height` pixels at `bits`
/// per pixel; UINT64_MAX when that overflows.
static uint64_t scanline_bytes(uint64_t width, uint64_t height, uint64_t bits) {
    if (width == 0 || height == 0) return 0;
    uint64_t row = (width * bits + 7) / 8 + 1;   /* width < 2^31, bits ≤ 64 */
    uint64_t total;
    if (__builtin_mul_overflow(row, height, &total)) return UINT64_MAX;
    return total;
}

/// The inflated size of the image data libpng will ask for (every Adam7 pass when interlaced).
static uint64_t expected_inflated_bytes(png_structp png, png_infop info) {
    uint64_t width = png_get_image_width(png, info);
    uint64_t height = png_get_image_height(png, info);
    uint64_t bits = (uint64_t)png_get_channels(png, info) * (uint64_t)png_get_bit_depth(png, info);
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_ADAM7) return scanline_bytes(width, height, bits);
    static const uint8_t x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const uint8_t dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    uint64_t total = 0;
    for (int pass = 0; pass < 7; pass++) {
        uint64_t w = width > x0[pass] ? (width - x0[pass] + dx[pass] - 1) / dx[pass] : 0;
        uint64_t h = height > y0[pass] ? (height - y0[pass] + dy[pass] - 1) / dy[pass] : 0;
        uint64_t bytes = scanline_bytes(w, h, bits);
        if (bytes == UINT64_MAX || __builtin_add_overflow(total, bytes, &total)) return UINT64_MAX;
    }
    return total;
}

/// A buffer of `size` bytes for the whole-stream inflate: its own mapping, in huge pages where
/// the kernel has them (a 12 MB buffer is then 6 page faults, not 3,000).
static uint8_t *whole_buffer_allocate(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return (uint8_t *)p;
}

static void whole_buffer_free(uint8_t *buffer, size_t size) {
    if (buffer) munmap(buffer, size);
}

static uint32_t read_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/// Length of the stored zlib stream over the inflated bytes: header, `padding` empty blocks,
/// the blocks of data, Adler-32.
static size_t stored_stream_size(size_t inflated, size_t padding) {
    size_t blocks = (inflated + IRIS_STORED_BLOCK_DATA - 1) / IRIS_STORED_BLOCK_DATA;
    return 2 + (padding + blocks) * IRIS_STORED_BLOCK_HEADER + inflated + 4;
}

/// Copies at most `length` bytes of the stored zlib stream from `position`; returns how many.
static size_t stored_stream_copy(const iris_png_reader *reader, size_t position, uint8_t *out, size_t length) {
    static const uint8_t header[2] = {0x78, 0x01};   /* deflate, 32 KiB window, no dictionary */
    if (position < 2) {
        out[0] = header[position];
        return 1;
    }
    size_t offset = position - 2;
    size_t padding = reader->padding_blocks * IRIS_STORED_BLOCK_HEADER;
    if (offset < padding) {
        static const uint8_t empty[IRIS_STORED_BLOCK_HEADER] = {0, 0, 0, 0xFF, 0xFF};   /* not final, LEN 0 */
        out[0] = empty[offset % IRIS_STORED_BLOCK_HEADER];
        return 1;
    }
    offset -= padding;
    size_t inflated = reader->inflated_size;
    size_t blocks = (inflated + IRIS_STORED_BLOCK_DATA - 1) / IRIS_STORED_BLOCK_DATA;
    size_t body = blocks * IRIS_STORED_BLOCK_HEADER + inflated;
    if (offset >= body) {
        out[0] = (uint8_t)(reader->adler >> (8 * (3 - (offset - body))));
        return 1;
    }
    size_t block = offset / (IRIS_STORED_BLOCK_HEADER + IRIS_STORED_BLOCK_DATA);
    size_t within = offset % (IRIS_STORED_BLOCK_HEADER + IRIS_STORED_BLOCK_DATA);
    size_t start = block * IRIS_STORED_BLOCK_DATA;
    size_t count = inflated - start < IRIS_STORED_BLOCK_DATA ? inflated - start : IRIS_STORED_BLOCK_DATA;
    if (within < IRIS_STORED_BLOCK_HEADER) {
        uint16_t len = (uint16_t)count;
        uint8_t bytes[IRIS_STORED_BLOCK_HEADER] = {
            block + 1 == blocks ? 1 : 0, (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)~len, (uint8_t)(~len >> 8)};
        out[0] = bytes[within];
        return 1;
    }
    size_t from = within - IRIS_STORED_BLOCK_HEADER;
    size_t run = count - from < length ? count - from : length;
    memcpy(out, reader->inflated + start + from, run);
    return run;
}

/// Serves libpng what follows the first IDAT's header: the stored stream as the rest of that
/// IDAT (its length as the file says), the remainder as one more IDAT, then IEND. CRCs are
/// zero: libpng is told not to check them. Returns the bytes copied (short only at the end).
static size_t whole_stream_read(iris_png_reader *reader, uint8_t *out, size_t length) {
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    size_t stream = stored_stream_size(reader->inflated_size, reader->padding_blocks);
    size_t first = reader->first_idat_length;
    size_t rest = stream - first;
    size_t copied = 0;
    while (copied < length) {
        size_t position = reader->served;
        size_t wanted = length - copied;
        size_t run;
        if (position < first) {
            run = stored_stream_copy(reader, position, out + copied, wanted < first - position ? wanted : first - position);
        } else if (position < first + 4) {
            out[copied] = 0;   /* the first IDAT's CRC */
            run = 1;
        } else if (rest > 0 && position < first + 12) {
            uint8_t header[8] = {(uint8_t)(rest >> 24), (uint8_t)(rest >> 16), (uint8_t)(rest >> 8), (uint8_t)rest, 'I', 'D', 'A', 'T'};
            out[copied] = header[position - first - 4];
            run = 1;
        } else if (rest > 0 && position < first + 12 + rest) {
            size_t left = first + 12 + rest - position;
            run = stored_stream_copy(reader, first + (position - first - 12), out + copied, wanted < left ? wanted : left);
        } else if (rest > 0 && position < first + 16 + rest) {
            out[copied] = 0;   /* the second IDAT's CRC */
            run = 1;
        } else {
            size_t at = position - first - 4 - (rest > 0 ? 12 + rest : 0);
            if (at >= sizeof iend) break;
            out[copied] = iend[at];
            run = 1;
        }
        copied += run;
        reader->served += run;
    }
    return copied;
}

int iris_png_inflate_whole(iris_png_reader *reader, size_t budget, size_t max_input) {
#ifdef IRIS_PNG_HAS_LIBDEFLATE
    if (reader->failure != IRIS_PNG_OK || reader->inflated) return 0;
    uint64_t expected = expected_inflated_bytes(reader->png, reader->info);
    if (expected == 0 || expected > budget || expected > SIZE_MAX / 2) return 0;
    // After png_read_info, libpng has read the first IDAT's length and type, and nothing else.
    size_t start = reader->offset;
    if (start < 8 || memcmp(reader->data + start - 4, "IDAT", 4) != 0) return 0;
    size_t first_length = read_be32(reader->data + start - 8);
    // The image data is read at once, so a file whose rest is larger than `max_input` streams:
    // a mapped file then never has more of it resident than streaming keeps.
    if (reader->size - start > max_input) return 0;

    // The run of IDAT chunks, each whole and with its CRC right; anything else streams, and
    // libpng reports it as it always has.
    size_t position = start - 8;
    size_t compressed = 0;
    int chunks = 0;
    while (reader->size - position >= 8 && memcmp(reader->data + position + 4, "IDAT", 4) == 0) {
        uint32_t length = read_be32(reader->data + position);
        if (length > 0x7FFFFFFFU || reader->size - position - 8 < (size_t)length + 4) return 0;
        uint32_t crc = (uint32_t)libdeflate_crc32(0, reader->data + position + 4, (size_t)length + 4);
        if (crc != read_be32(reader->data + position + 8 + length)) return 0;
        compressed += length;
        chunks += 1;
        position += (size_t)length + 12;
    }
    size_t end = position;
    if (chunks == 0 || (chunks > 1 && expected + compressed > budget)) return 0;

    const uint8_t *input = reader->data + start;
    uint8_t *joined = NULL;
    if (chunks > 1) {
        joined = whole_buffer_allocate(compressed ? compressed : 1);
        if (!joined) return 0;
        size_t at = 0;
        for (position = start - 8; position < end;) {
            uint32_t length = read_be32(reader->data + position);
            memcpy(joined + at, reader->data + position + 8, length);
            at += length;
            position += (size_t)length + 12;
        }
        input = joined;
    }
    uint8_t *inflated = whole_buffer_allocate((size_t)expected);
    struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
    size_t used = 0, produced = 0;
    enum libdeflate_result result = LIBDEFLATE_BAD_DATA;
    if (inflated && decompressor) {
        result = libdeflate_zlib_decompress_ex(decompressor, input, compressed, inflated, (size_t)expected, &used, &produced);
    }
    libdeflate_free_decompressor(decompressor);
    uint32_t adler = result == LIBDEFLATE_SUCCESS && used >= 4 ? read_be32(input + used - 4) : 0;
    whole_buffer_free(joined, compressed ? compressed : 1);
    // Exactly the bytes the image needs. The stored stream is at least as long as the first
    // IDAT (whose length libpng has read): empty blocks lead it when the file's stream is longer
    // (incompressible data in smaller blocks, or bytes after the stream's end).
    size_t plain = stored_stream_size(produced, 0);
    size_t padding = plain < first_length ? (first_length - plain + IRIS_STORED_BLOCK_HEADER - 1) / IRIS_STORED_BLOCK_HEADER : 0;
    if (result != LIBDEFLATE_SUCCESS || produced != expected
        || stored_stream_size(produced, padding) - first_length > 0x7FFFFFFFU) {
        whole_buffer_free(inflated, (size_t)expected);
        return 0;
    }
    reader->inflated = inflated;
    reader->inflated_size = produced;
    reader->adler = adler;
    reader->first_idat_length = first_length;
    reader->padding_blocks = padding;
    reader->served = 0;
    reader->offset = end;   /* every IDAT byte has been used */
    png_set_option(reader->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    png_set_crc_action(reader->png, PNG_CRC_QUIET_USE, PNG_CRC_DEFAULT);
    return 1;
#else
    (void)reader;
    (void)budget;
    (void)max_input;
    return 0;
#endif
}

IrisPNGStatus iris_png_read_rows(iris_png_reader *reader, uint8_t *rows, size_t stride, uint32_t count) {
    if (reader->failure != IRIS_PNG_OK) return reader->failure;
    if (setjmp(png_jmpbuf(reader->png))) return reader_fail(reader);
    for (uint32_t y = 0; y < count; y++) {
        png_read_row(reader->png, rows + (size_t)y * stride, NULL);
    }
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_read_image(iris_png_reader *reader, uint8_t *pixels, size_t stride) {
    if (reader->failure != IRIS_PNG_OK) return reader->failure;
    if (setjmp(png_jmpbuf(reader->png))) return reader_fail(reader);
    // Each pass visits every row; libpng fills in that pass's pixels (what png_read_image
    // does, without allocating a table of row pointers that a longjmp could leak).
    for (int pass = 0; pass < reader->passes; pass++) {
        for (uint32_t y = 0; y < reader->height; y++) {
            png_read_row(reader->png, pixels + (size_t)y * stride, NULL);
        }
    }
    return IRIS_PNG_OK;
}

const char *iris_png_reader_message(const iris_png_reader *reader) {
    return reader->messages.error;
}

size_t iris_png_reader_consumed(const iris_png_reader *reader) {
    return reader->offset;
}

void iris_png_reader_destroy(iris_png_reader *reader) {
    if (!reader) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    whole_buffer_free(reader->inflated, reader->inflated_size);
    free(reader);
}

// MARK: - Writer

struct iris_png_writer {
    iris_png_messages messages;
    png_structp png;
    png_infop info;
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    IrisPNGStatus failure;
    int passes;
    uint32_t height;
};

static void writer_write(png_structp png, png_bytep data, size_t length) {
    iris_png_writer *writer = (iris_png_writer *)png_get_io_ptr(png);
    if (length > SIZE_MAX - writer->size) png_error(png, "output too large");
    size_t needed = writer->size + length;
    if (needed > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 4096;
        while (capacity < needed) {
            capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        }
        uint8_t *grown = (uint8_t *)realloc(writer->bytes, capacity);
        if (!grown) png_error(png, "out of memory for the encoded PNG");
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->bytes + writer->size, data, length);
    writer->size = needed;
}

static void writer_flush(png_structp png) {
    (void)png;
}

iris_png_writer *iris_png_writer_create(void) {
    iris_png_writer *writer = (iris_png_writer *)calloc(1, sizeof *writer);
    if (!writer) return NULL;
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->messages, record_error, record_warning);
    if (!writer->png) {
        free(writer);
        return NULL;
    }
    writer->info = png_create_info_struct(writer->png);
    if (!writer->info) {
        png_destroy_write_struct(&writer->png, NULL);
        free(writer);
        return NULL;
    }
    png_set_write_fn(writer->png, writer, writer_write, writer_flush);
    png_set_user_limits(writer->png, IRIS_PNG_MAX_DIMENSION, IRIS_PNG_MAX_DIMENSION);
    return writer;
}

static IrisPNGStatus writer_fail(iris_png_writer *writer) {
    writer->failure = IRIS_PNG_ERROR;
    return writer->failure;
}

IrisPNGStatus iris_png_write_begin(iris_png_writer *writer, const iris_png_write_params *params) {
    if (writer->failure != IRIS_PNG_OK) return writer->failure;
    if (setjmp(png_jmpbuf(writer->png))) return writer_fail(writer);
    png_structp png = writer->png;
    png_infop info = writer->info;
    png_set_IHDR(png, info, params->width, params->height, params->bit_depth, params->color_type,
                 params->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (params->compression_level >= 0) png_set_compression_level(png, params->compression_level);
    if (params->palette && params->palette_count > 0) {
        png_color colors[256];
        int count = params->palette_count > 256 ? 256 : params->palette_count;
        for (int i = 0; i < count; i++) {
            colors[i].red = params->palette[3 * i];
            colors[i].green = params->palette[3 * i + 1];
            colors[i].blue = params->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, count);
    }
    if (params->trns_alpha && params->trns_alpha_count > 0) {
        int count = params->trns_alpha_count > 256 ? 256 : params->trns_alpha_count;
        png_set_tRNS(png, info, params->trns_alpha, count, NULL);
    } else if (params->has_trns_color) {
        png_color_16 color;
        memset(&color, 0, sizeof color);
        color.gray = params->trns_gray;
        color.red = params->trns_red;
        color.green = params->trns_green;
        color.blue = params->trns_blue;
        png_set_tRNS(png, info, NULL, 0, &color);
    }
    if (params->icc_profile && params->icc_profile_size > 0) {
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE,
                     params->icc_profile, params->icc_profile_size);
    }
    png_write_info(png, info);
    if (params->strip_filler) png_set_filler(png, 0, PNG_FILLER_AFTER);
    writer->passes = png_set_interlace_handling(png);
    writer->height = params->height;
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_write_rows(iris_png_writer *writer, const uint8_t *rows, size_t stride, uint32_t count) {
    if (writer->failure != IRIS_PNG_OK) return writer->failure;
    if (setjmp(png_jmpbuf(writer->png))) return writer_fail(writer);
    for (uint32_t y = 0; y < count; y++) {
        png_write_row(writer->png, rows + (size_t)y * stride);
    }
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_write_image(iris_png_writer *writer, const uint8_t *pixels, size_t stride) {
    if (writer->failure != IRIS_PNG_OK) return writer->failure;
    if (setjmp(png_jmpbuf(writer->png))) return writer_fail(writer);
    for (int pass = 0; pass < writer->passes; pass++) {
        for (uint32_t y = 0; y < writer->height; y++) {
            png_write_row(writer->png, pixels + (size_t)y * stride);
        }
    }
    return IRIS_PNG_OK;
}

IrisPNGStatus iris_png_write_end(iris_png_writer *writer) {
    if (writer->failure != IRIS_PNG_OK) return writer->failure;
    if (setjmp(png_jmpbuf(writer->png))) return writer_fail(writer);
    png_write_end(writer->png, NULL);
    return IRIS_PNG_OK;
}

const uint8_t *iris_png_writer_bytes(const iris_png_writer *writer, size_t *size) {
    *size = writer->size;
    return writer->bytes;
}

const char *iris_png_writer_message(const iris_png_writer *writer) {
    return writer->messages.error;
}

void iris_png_writer_destroy(iris_png_writer *writer) {
    if (!writer) return;
    png_destroy_write_struct(&writer->png, &writer->info);
    free(writer->bytes);
    free(writer);
}

#endif
