#ifndef IRIS_PNG_SHIM_H
#define IRIS_PNG_SHIM_H
// A small C API over libpng 1.6. libpng reports errors with png_error, which longjmps; every
// function here sets its own setjmp point, so a longjmp never crosses a Swift frame. Each
// returns an IrisPNGStatus and keeps libpng's message for the caller to read. Every allocation
// (libpng's and ours) is owned by the reader or writer object and freed by its destroy call.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of one shim call.
typedef enum {
    /// The call succeeded.
    IRIS_PNG_OK = 0,
    /// libpng reported an error; see the message.
    IRIS_PNG_ERROR = 1,
    /// The input ended before libpng had what it needed; see bytes consumed.
    IRIS_PNG_TRUNCATED = 2,
} IrisPNGStatus;

/// Pixel layout a reader should deliver.
typedef enum {
    /// One 8-bit grey sample per pixel (grey images without transparency).
    IRIS_PNG_OUT_GRAY8 = 0,
    /// R, G, B and a 0xFF filler byte (colour images without transparency).
    IRIS_PNG_OUT_RGBX8 = 1,
    /// R, G, B, A with straight alpha (anything with alpha or a tRNS chunk; grey is expanded).
    IRIS_PNG_OUT_RGBA8 = 2,
} IrisPNGOutput;

/// What the header (and chunks up to the first IDAT) say.
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int color_type;
    /// 1 for Adam7.
    int interlaced;
    /// 1 when a tRNS chunk is present.
    int has_trns;
} iris_png_info;

typedef struct iris_png_reader iris_png_reader;

/// What the colour chunks before the first IDAT say (libpng's own readings; a chunk libpng
/// found invalid is absent). Fixed-point values are × 100000, as stored.
typedef struct {
    /// The decompressed iCCP profile (owned by the reader, valid until destroy), or NULL.
    const uint8_t *icc_profile;
    uint32_t icc_profile_size;
    /// 1 when an sRGB chunk is present, with its rendering intent.
    int has_srgb;
    int srgb_intent;
    /// 1 when a gAMA chunk is present: the file gamma (45455 for 1/2.2).
    int has_gamma;
    int32_t gamma;
    /// 1 when a cHRM chunk is present: white x, y, red x, y, green x, y, blue x, y.
    int has_chrm;
    int32_t chrm[8];
} iris_png_color;

/// A reader over `size` bytes at `data`, which must stay valid until destroy. NULL when out of memory.
iris_png_reader *iris_png_reader_create(const uint8_t *data, size_t size);
/// Reads the signature and every chunk up to the first IDAT.
IrisPNGStatus iris_png_read_info(iris_png_reader *reader, iris_png_info *info);
/// The colour chunks (iCCP, sRGB, gAMA, cHRM), after iris_png_read_info. The iCCP profile
/// is decompressed by libpng within the reader's chunk allocation cap.
IrisPNGStatus iris_png_get_color(iris_png_reader *reader, iris_png_color *color);
/// Inflates the image data at once with libdeflate (about twice zlib's speed) when the inflated
/// scanlines (and, over several IDAT chunks, a joined copy of them) take at most `budget`
/// bytes, and lets libpng read it back as stored deflate blocks. Returns 1 when it did; 0 when
/// libpng streams the file's own data as before (over budget, no libdeflate, or anything wrong
/// with the IDAT chunks or their data, which libpng then reports itself). Only a file with at
/// most `max_input` bytes from its first IDAT on is read at once (else it streams). Call after
/// iris_png_read_info, before iris_png_set_output.
int iris_png_inflate_whole(iris_png_reader *reader, size_t budget, size_t max_input);
/// Sets the transforms for `output` (16-bit scaled with rounding, low bit depths expanded,
/// palette and tRNS expanded, filler added, interlace handling on) and reports the row size
/// and the number of interlace passes. Call once, after iris_png_read_info.
IrisPNGStatus iris_png_set_output(iris_png_reader *reader, IrisPNGOutput output, size_t *row_bytes, int *passes);
/// Reads the next `count` rows of a non-interlaced image into `rows`, `stride` bytes apart.
IrisPNGStatus iris_png_read_rows(iris_png_reader *reader, uint8_t *rows, size_t stride, uint32_t count);
/// Reads the whole image (every interlace pass) into `pixels`, rows `stride` bytes apart.
IrisPNGStatus iris_png_read_image(iris_png_reader *reader, uint8_t *pixels, size_t stride);
/// libpng's last error message ("" when none); warnings are otherwise ignored.
const char *iris_png_reader_message(const iris_png_reader *reader);
/// Bytes handed to libpng so far; after IRIS_PNG_TRUNCATED, the whole input.
size_t iris_png_reader_consumed(const iris_png_reader *reader);
/// Frees the reader and everything libpng allocated for it. NULL is ignored.
void iris_png_reader_destroy(iris_png_reader *reader);

/// Everything a writer needs before the first row.
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    /// RGB triplets for a palette image (`palette_count` of them), else NULL.
    const uint8_t *palette;
    int palette_count;
    /// Alpha per palette entry (`trns_alpha_count` of them) for a tRNS chunk, else NULL.
    const uint8_t *trns_alpha;
    int trns_alpha_count;
    /// 1 to write a tRNS chunk with a transparent grey or RGB value (samples at bit depth).
    int has_trns_color;
    uint16_t trns_gray;
    uint16_t trns_red;
    uint16_t trns_green;
    uint16_t trns_blue;
    /// zlib level 0–9, or -1 for libpng's default.
    int compression_level;
    /// 1 when each input pixel carries a fourth byte after R, G, B that must be dropped.
    int strip_filler;
    /// An ICC profile to write as iCCP (`icc_profile_size` bytes), else NULL.
    const uint8_t *icc_profile;
    uint32_t icc_profile_size;
} iris_png_write_params;

typedef struct iris_png_writer iris_png_writer;

/// A writer into a growable memory buffer. NULL when out of memory.
iris_png_writer *iris_png_writer_create(void);
/// Writes the signature, IHDR, PLTE and tRNS.
IrisPNGStatus iris_png_write_begin(iris_png_writer *writer, const iris_png_write_params *params);
/// Writes `count` rows of a non-interlaced image from `rows`, `stride` bytes apart.
IrisPNGStatus iris_png_write_rows(iris_png_writer *writer, const uint8_t *rows, size_t stride, uint32_t count);
/// Writes the whole image (every interlace pass) from `pixels`, rows `stride` bytes apart.
IrisPNGStatus iris_png_write_image(iris_png_writer *writer, const uint8_t *pixels, size_t stride);
/// Writes IEND.
IrisPNGStatus iris_png_write_end(iris_png_writer *writer);
/// The bytes written so far; valid until destroy.
const uint8_t *iris_png_writer_bytes(const iris_png_writer *writer, size_t *size);
/// libpng's last error message ("" when none); warnings are otherwise ignored.
const char *iris_png_writer_message(const iris_png_writer *writer);
/// Frees the writer, its buffer and everything libpng allocated for it. NULL is ignored.
void iris_png_writer_destroy(iris_png_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
