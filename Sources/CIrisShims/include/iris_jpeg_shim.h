#ifndef IRIS_JPEG_SHIM_H
#define IRIS_JPEG_SHIM_H
// A small libjpeg(-turbo) API that never longjmps into Swift: every call sets up its own
// setjmp, returns a status code, and keeps libjpeg's formatted message for the caller.
// Contexts own all their memory; destroy them on every path (also after an error).
// Only built on Linux (Apple platforms decode with ImageIO); the types here are opaque so the
// header does not need jpeglib.h.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Status codes returned by every call.
#define IRIS_JPEG_OK 0
/// libjpeg rejected the data (or an argument); the message says why.
#define IRIS_JPEG_ERROR 1
/// The data ended before the image did (libjpeg warned "Premature end of JPEG file").
#define IRIS_JPEG_TRUNCATED 2
/// A progressive JPEG has more scans than the decoder's limit.
#define IRIS_JPEG_TOO_MANY_SCANS 3

// Colour spaces, as stored in the file or asked for on output.
#define IRIS_JPEG_CS_UNKNOWN 0
#define IRIS_JPEG_CS_GRAY 1
#define IRIS_JPEG_CS_RGB 2
#define IRIS_JPEG_CS_YCBCR 3
#define IRIS_JPEG_CS_CMYK 4
#define IRIS_JPEG_CS_YCCK 5
/// Output only: R, G, B and a filler byte of 255 (libjpeg-turbo's JCS_EXT_RGBX).
#define IRIS_JPEG_CS_RGBX 6

// Scan layouts for the encoder.
#define IRIS_JPEG_SCANS_BASELINE 0
/// libjpeg's standard progressive script (jpeg_simple_progression).
#define IRIS_JPEG_SCANS_PROGRESSIVE 1
/// Every coefficient band in its own scan with full successive approximation: a valid file
/// with thousands of scans (used to test the decoder's scan limit).
#define IRIS_JPEG_SCANS_EXHAUSTIVE 2

/// What the header says.
typedef struct iris_jpeg_header {
    int width;
    int height;
    int num_components;
    /// IRIS_JPEG_CS_*: the colour space libjpeg inferred from the markers.
    int color_space;
    /// Whether an Adobe APP14 marker was found (Photoshop: CMYK stored inverted).
    int saw_adobe_marker;
    /// The Adobe marker's transform code (0 none, 1 YCbCr, 2 YCCK).
    int adobe_transform;
    int progressive;
} iris_jpeg_header;

typedef struct iris_jpeg_decoder iris_jpeg_decoder;

/// A decoder over `size` bytes at `data`, which must stay valid until it is destroyed.
/// `max_scans` bounds the scans of a multi-scan file; `max_memory` (bytes, 0 = none) bounds
/// libjpeg's working memory. Returns NULL only when out of memory; other failures are reported
/// by the next call.
iris_jpeg_decoder *iris_jpeg_decoder_create(const unsigned char *data, size_t size, int max_scans, long max_memory);

/// Reads the markers up to the first scan.
int iris_jpeg_decoder_read_header(iris_jpeg_decoder *decoder, iris_jpeg_header *header);

/// Starts decompression at scale `scale_num`/8 into `out_color_space` (IRIS_JPEG_CS_GRAY,
/// IRIS_JPEG_CS_RGBX or IRIS_JPEG_CS_CMYK), with the accurate integer IDCT and fancy upsampling.
/// Reports the scaled output size and bytes per pixel. A progressive file is read whole here
/// (at 1/8, without the scans it does not need: iris_jpeg_decoder_read_needed_scans_only).
int iris_jpeg_decoder_start(iris_jpeg_decoder *decoder, int scale_num, int out_color_space,
                            int *out_width, int *out_height, int *out_components);

/// Whether a decode at 1/8 of a progressive file leaves out the scans it does not need (on by
/// default): components whose DCT is scaled to 1×1 are made from their DC coefficients alone, so
/// their AC scans are not read and their coefficients are kept as DC only (about 1/64 of the
/// memory). The pixels are the same. Call before iris_jpeg_decoder_start.
void iris_jpeg_decoder_read_needed_scans_only(iris_jpeg_decoder *decoder, int enabled);

/// The scans iris_jpeg_decoder_start left out, and the components it decodes from DC alone.
int iris_jpeg_decoder_skipped_scans(const iris_jpeg_decoder *decoder);
int iris_jpeg_decoder_dc_only_components(const iris_jpeg_decoder *decoder);

/// Reads up to `max_rows` (at most 64) rows into `buffer`, rows `stride` bytes apart.
/// After the last row, reports IRIS_JPEG_TRUNCATED if the data ended early.
int iris_jpeg_decoder_read_rows(iris_jpeg_decoder *decoder, unsigned char *buffer, size_t stride,
                                int max_rows, int *rows_read);

/// The ICC profile of the APP2 ICC_PROFILE segments (libjpeg-turbo's jpeg_read_icc_profile),
/// after iris_jpeg_decoder_read_header: `*bytes` is NULL when there is none (or the segments
/// are malformed), else `*size` bytes the caller frees with iris_jpeg_free.
int iris_jpeg_decoder_icc_profile(iris_jpeg_decoder *decoder, unsigned char **bytes, unsigned int *size);

/// Frees memory the shim handed over.
void iris_jpeg_free(void *bytes);

/// The message of the last failure ("" if none).
const char *iris_jpeg_decoder_message(const iris_jpeg_decoder *decoder);

/// Releases everything the decoder holds. NULL is ignored.
void iris_jpeg_decoder_destroy(iris_jpeg_decoder *decoder);

/// Encoder settings.
typedef struct iris_jpeg_encode_options {
    int width;
    int height;
    /// Layout of the rows given: IRIS_JPEG_CS_GRAY (1 byte), IRIS_JPEG_CS_RGBX (4 bytes, the
    /// fourth ignored) or IRIS_JPEG_CS_CMYK (4 bytes).
    int input_color_space;
    /// Colour space written: IRIS_JPEG_CS_GRAY, IRIS_JPEG_CS_YCBCR, IRIS_JPEG_CS_CMYK or
    /// IRIS_JPEG_CS_YCCK (the last two from CMYK input only).
    int jpeg_color_space;
    /// 1–100.
    int quality;
    /// IRIS_JPEG_SCANS_*.
    int scans;
    /// Non-zero: subsample chroma 2×2 (4:2:0, libjpeg's default); zero: 4:4:4.
    int subsample_chroma;
    /// For CMYK: non-zero writes the Adobe marker (samples are then expected inverted, as
    /// Photoshop writes them); YCCK always has one.
    int adobe_marker;
} iris_jpeg_encode_options;

typedef struct iris_jpeg_encoder iris_jpeg_encoder;

/// An encoder writing to memory. Returns NULL only when out of memory; other failures are
/// reported by the next call.
iris_jpeg_encoder *iris_jpeg_encoder_create(const iris_jpeg_encode_options *options);

/// Writes `size` bytes of ICC profile as APP2 ICC_PROFILE segments (jpeg_write_icc_profile);
/// call before the first row.
int iris_jpeg_encoder_write_icc_profile(iris_jpeg_encoder *encoder, const unsigned char *bytes, unsigned int size);

/// Compresses `count` rows from `rows`, `stride` bytes apart.
int iris_jpeg_encoder_write_rows(iris_jpeg_encoder *encoder, const unsigned char *rows, size_t stride, int count);

/// Finishes the file; `*bytes` (owned by the encoder) and `*size` then hold it.
int iris_jpeg_encoder_finish(iris_jpeg_encoder *encoder, const unsigned char **bytes, size_t *size);

/// The message of the last failure ("" if none).
const char *iris_jpeg_encoder_message(const iris_jpeg_encoder *encoder);

/// Releases everything the encoder holds, including the output. NULL is ignored.
void iris_jpeg_encoder_destroy(iris_jpeg_encoder *encoder);

#ifdef __cplusplus
}
#endif

#endif
