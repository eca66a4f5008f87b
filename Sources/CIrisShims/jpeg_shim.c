// libjpeg(-turbo) wrappers: see include/iris_jpeg_shim.h.
// libjpeg reports fatal errors through error_exit, which must not return; ours longjmps back
// into the wrapper that made the call (each wrapper does its own setjmp), records the message
// and returns a status. A failed context stays failed: later calls return the same status.
#include "iris_jpeg_shim.h"

#ifdef __linux__

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include "jpeg_dc_only.h"

// MARK: - Errors and warnings

typedef struct iris_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int eof_warning;   // JWRN_JPEG_EOF: the source ran out and libjpeg inserted an EOI
    int hit_marker;    // JWRN_HIT_MARKER: entropy-coded data needed bits that were not there
    int failed;        // status of a failure, once one happened
    char message[JMSG_LENGTH_MAX];
    // libjpeg's first warning about the data other than running out (JWRN_JPEG_EOF) and hitting
    // a marker (JWRN_HIT_MARKER): "Corrupt JPEG data: bad Huffman code", "... N extraneous
    // bytes before marker 0xd9"... which names what is wrong with damaged scan data.
    char first_warning[JMSG_LENGTH_MAX];
    // libjpeg's own text for JWRN_HIT_MARKER, once it was warned, and where: the output row
    // being made, the marker hit, and how many bytes of the data lay unread after it.
    char hit_marker_warning[JMSG_LENGTH_MAX];
    unsigned int hit_marker_row;
    int hit_marker_code;
    size_t hit_marker_unread;
} iris_jpeg_error;

static void iris_error_exit(j_common_ptr cinfo) {
    iris_jpeg_error *err = (iris_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void iris_emit_message(j_common_ptr cinfo, int msg_level) {
    iris_jpeg_error *err = (iris_jpeg_error *)cinfo->err;
    if (msg_level >= 0) return; // trace messages
    err->pub.num_warnings++;
    int code = err->pub.msg_code;
    if (code == JWRN_JPEG_EOF) {
        err->eof_warning = 1;
    } else if (code == JWRN_HIT_MARKER) {
        if (!err->hit_marker) {
            (*cinfo->err->format_message)(cinfo, err->hit_marker_warning);
            if (cinfo->is_decompressor) {
                j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
                err->hit_marker_row = dinfo->output_scanline;
                err->hit_marker_code = dinfo->unread_marker;
                err->hit_marker_unread = dinfo->src ? iris_scan_source_unread((iris_jpeg_scan_source *)dinfo->src) : 0;
            }
        }
        err->hit_marker = 1;
    } else if (!err->first_warning[0]) {
        (*cinfo->err->format_message)(cinfo, err->first_warning);
    }
}

static void iris_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void iris_error_init(iris_jpeg_error *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = iris_error_exit;
    err->pub.emit_message = iris_emit_message;
    err->pub.output_message = iris_output_message;
    err->message[0] = '\0';
    err->first_warning[0] = '\0';
    err->hit_marker_warning[0] = '\0';
}

static void iris_set_message(iris_jpeg_error *err, const char *message) {
    snprintf(err->message, sizeof err->message, "%s", message);
}

static int iris_color_space_from_libjpeg(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return IRIS_JPEG_CS_GRAY;
    case JCS_RGB: return IRIS_JPEG_CS_RGB;
    case JCS_YCbCr: return IRIS_JPEG_CS_YCBCR;
    case JCS_CMYK: return IRIS_JPEG_CS_CMYK;
    case JCS_YCCK: return IRIS_JPEG_CS_YCCK;
    default: return IRIS_JPEG_CS_UNKNOWN;
    }
}

// MARK: - Decoder

struct iris_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    iris_jpeg_error err;
    struct jpeg_progress_mgr progress;
    iris_jpeg_scan_source source;
    iris_dc_store dc_store;
    int created;
    int max_scans;
    /// Whether a 1/8 decode of a progressive file may leave out the AC scans it does not need
    /// (the components decoded from DC alone, once planned: dc_store.component_mask).
    int reads_needed_scans_only;
};

iris_dc_store *iris_dc_store_of(j_common_ptr cinfo) {
    return &((iris_jpeg_decoder *)cinfo->client_data)->dc_store;
}

// Called by libjpeg between units of work while it absorbs a multi-scan file: stops a file
// whose scans go on and on (each scan walks the whole image).
static void iris_decoder_progress(j_common_ptr cinfo) {
    iris_jpeg_decoder *decoder = (iris_jpeg_decoder *)cinfo->client_data;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > decoder->max_scans) {
        snprintf(decoder->err.message, sizeof decoder->err.message,
                 "the progressive JPEG has more than %d scans", decoder->max_scans);
        decoder->err.failed = IRIS_JPEG_TOO_MANY_SCANS;
        longjmp(decoder->err.jump, 1);
    }
}

// The status after a longjmp: truncation when the source ran out first.
static int iris_decoder_fail(iris_jpeg_decoder *decoder) {
    if (!decoder->err.failed) {
        decoder->err.failed = decoder->err.eof_warning ? IRIS_JPEG_TRUNCATED : IRIS_JPEG_ERROR;
    }
    return decoder->err.failed;
}

// Whether a progressive file stopped before every coefficient was fully refined (only the DC
// coefficient of a component decoded from DC alone).
static int iris_decoder_progression_incomplete(const iris_jpeg_decoder *decoder) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!cinfo->progressive_mode || cinfo->coef_bits == NULL) return 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        int coefficients = (decoder->dc_store.component_mask >> c & 1) ? 1 : DCTSIZE2;
        for (int k = 0; k < coefficients; k++) {
            if (cinfo->coef_bits[c][k] != 0) return 1;
        }
    }
    return 0;
}

iris_jpeg_decoder *iris_jpeg_decoder_create(const unsigned char *data, size_t size, int max_scans, long max_memory) {
    iris_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->max_scans = max_scans > 0 ? max_scans : INT_MAX;
    decoder->reads_needed_scans_only = 1;
    iris_error_init(&decoder->err);
    decoder->cinfo.err = &decoder->err.pub;
    if (setjmp(decoder->err.jump)) {
        iris_decoder_fail(decoder);
        return decoder;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->cinfo.client_data = decoder;
    iris_dc_store_install(&decoder->cinfo, &decoder->dc_store);
    if (max_memory > 0) decoder->cinfo.mem->max_memory_to_use = max_memory;
    decoder->progress.progress_monitor = iris_decoder_progress;
    decoder->cinfo.progress = &decoder->progress;
    if (size == 0 || size > ULONG_MAX) {
        iris_set_message(&decoder->err, "the JPEG data is empty or too large");
        decoder->err.failed = IRIS_JPEG_ERROR;
        return decoder;
    }
    iris_scan_source_init(&decoder->cinfo, &decoder->source, data, size);
    // APP2 segments are kept for the ICC profile (at most 255 of 64 KB, by the format).
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    return decoder;
}

int iris_jpeg_decoder_icc_profile(iris_jpeg_decoder *decoder, unsigned char **bytes, unsigned int *size) {
    *bytes = NULL;
    *size = 0;
    if (decoder->err.failed) return decoder->err.failed;
    if (setjmp(decoder->err.jump)) return iris_decoder_fail(decoder);
    JOCTET *profile = NULL;
    unsigned int length = 0;
    // FALSE also for a malformed set of segments (libjpeg warns); that is no profile.
    if (jpeg_read_icc_profile(&decoder->cinfo, &profile, &length) && profile != NULL) {
        *bytes = profile;
        *size = length;
    }
    return IRIS_JPEG_OK;
}

void iris_jpeg_free(void *bytes) { free(bytes); }

int iris_jpeg_decoder_read_header(iris_jpeg_decoder *decoder, iris_jpeg_header *header) {
    if (decoder->err.failed) return decoder->err.failed;
    if (setjmp(decoder->err.jump)) return iris_decoder_fail(decoder);
    jpeg_read_header(&decoder->cinfo, TRUE);
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    header->width = (int)cinfo->image_width;
    header->height = (int)cinfo->image_height;
    header->num_components = cinfo->num_components;
    header->color_space = iris_color_space_from_libjpeg(cinfo->jpeg_color_space);
    header->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    header->adobe_transform = cinfo->Adobe_transform;
    header->progressive = cinfo->progressive_mode ? 1 : 0;
    return IRIS_JPEG_OK;
}

// At scale 1/8, a progressive file's components whose DCT is scaled to 1×1 need only their DC
// coefficients: plans to leave their AC scans unread and keeps their coefficients as DC alone
// (jpeg_dc_only.h). Returns -1 when the file has too many scans, else 0 (planned or not).
static int iris_decoder_plan_dc_only(iris_jpeg_decoder *decoder) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!decoder->reads_needed_scans_only || !cinfo->progressive_mode) return 0;
    jpeg_calc_output_dimensions(cinfo);
    unsigned int mask = 0;
    for (int ci = 0; ci < cinfo->num_components && ci < MAX_COMPONENTS; ci++) {
#if JPEG_LIB_VERSION >= 70
        int one_by_one = cinfo->comp_info[ci].DCT_h_scaled_size == 1 && cinfo->comp_info[ci].DCT_v_scaled_size == 1;
#else
        int one_by_one = cinfo->comp_info[ci].DCT_scaled_size == 1;
#endif
        if (one_by_one) mask |= 1u << ci;
    }
    if (mask == 0) return 0;
    int planned = iris_scan_source_skip_ac_scans(cinfo, &decoder->source, mask, decoder->max_scans);
    if (planned <= 0) return planned;
    // Smoothing estimates AC coefficients that have not arrived (and nudges DC when none have):
    // with the AC scans left out on purpose, the pixels must come from DC alone, as they would
    // from the whole file.
    cinfo->do_block_smoothing = FALSE;
    decoder->dc_store.component_mask = mask;
    return 0;
}

void iris_jpeg_decoder_read_needed_scans_only(iris_jpeg_decoder *decoder, int enabled) {
    decoder->reads_needed_scans_only = enabled ? 1 : 0;
}

int iris_jpeg_decoder_skipped_scans(const iris_jpeg_decoder *decoder) { return decoder->source.skipped_scans; }

int iris_jpeg_decoder_dc_only_components(const iris_jpeg_decoder *decoder) {
    int components = 0;
    for (int ci = 0; ci < MAX_COMPONENTS; ci++) components += decoder->dc_store.arrays[ci] != NULL;
    return components;
}

int iris_jpeg_decoder_start(iris_jpeg_decoder *decoder, int scale_num, int out_color_space,
                            int *out_width, int *out_height, int *out_components) {
    if (decoder->err.failed) return decoder->err.failed;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    J_COLOR_SPACE space;
    switch (out_color_space) {
    case IRIS_JPEG_CS_GRAY: space = JCS_GRAYSCALE; break;
    case IRIS_JPEG_CS_RGBX: space = JCS_EXT_RGBX; break;
    case IRIS_JPEG_CS_CMYK: space = JCS_CMYK; break;
    default:
        iris_set_message(&decoder->err, "unsupported output colour space");
        return decoder->err.failed = IRIS_JPEG_ERROR;
    }
    if (scale_num < 1 || scale_num > 16) {
        iris_set_message(&decoder->err, "unsupported scale");
        return decoder->err.failed = IRIS_JPEG_ERROR;
    }
    if (setjmp(decoder->err.jump)) return iris_decoder_fail(decoder);
    cinfo->out_color_space = space;
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
    cinfo->buffered_image = FALSE;
    if (iris_decoder_plan_dc_only(decoder) < 0) {
        snprintf(decoder->err.message, sizeof decoder->err.message,
                 "the progressive JPEG has more than %d scans", decoder->max_scans);
        return decoder->err.failed = IRIS_JPEG_TOO_MANY_SCANS;
    }
    jpeg_start_decompress(cinfo);
    *out_width = (int)cinfo->output_width;
    *out_height = (int)cinfo->output_height;
    *out_components = cinfo->output_components;
    return IRIS_JPEG_OK;
}

int iris_jpeg_decoder_read_rows(iris_jpeg_decoder *decoder, unsigned char *buffer, size_t stride,
                                int max_rows, int *rows_read) {
    *rows_read = 0;
    if (decoder->err.failed) return decoder->err.failed;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (max_rows > 64) max_rows = 64;
    JSAMPROW rows[64];
    for (int i = 0; i < max_rows; i++) rows[i] = buffer + (size_t)i * stride;
    // rows_read lives in the caller's memory, so its count survives a longjmp.
    if (setjmp(decoder->err.jump)) return iris_decoder_fail(decoder);
    while (*rows_read < max_rows && cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows + *rows_read, (JDIMENSION)(max_rows - *rows_read));
        if (got == 0) {
            iris_set_message(&decoder->err, "the JPEG decoder made no progress");
            return decoder->err.failed = IRIS_JPEG_ERROR;
        }
        *rows_read += (int)got;
    }
    if (cinfo->output_scanline >= cinfo->output_height && decoder->err.eof_warning
        && (decoder->err.hit_marker || iris_decoder_progression_incomplete(decoder))) {
        // The source ran out while entropy-coded data was still needed (libjpeg padded the
        // rest with grey). Running out only where the EOI marker should be is harmless.
        iris_set_message(&decoder->err, "Premature end of JPEG file");
        return decoder->err.failed = IRIS_JPEG_TRUNCATED;
    }
    if (cinfo->output_scanline >= cinfo->output_height && decoder->err.hit_marker) {
        // A marker came where entropy-coded data was still needed: the scan data is damaged,
        // or the header states a larger image than the data holds. libjpeg padded the rest
        // with grey. Its own warnings say which: damage comes with a warning of its own first.
        const iris_jpeg_error *e = &decoder->err;
        if (e->first_warning[0]) {
            snprintf(decoder->err.message, sizeof decoder->err.message,
                     "the scan data is corrupt (libjpeg: \"%s\", then \"%s\" at row %u of %u)",
                     e->first_warning, e->hit_marker_warning, e->hit_marker_row, cinfo->output_height);
        } else if (e->hit_marker_code != JPEG_EOI || e->hit_marker_unread > 64) {
            // A marker other than the end of the image, or one with more than a few bytes of
            // data after it (libjpeg-turbo's count lags by a few), breaks into the scan: the
            // data is damaged (the image does not simply stop).
            snprintf(decoder->err.message, sizeof decoder->err.message,
                     "the scan data is corrupt: marker 0x%02X interrupts it at row %u of %u, %zu bytes before "
                     "the end of the data (libjpeg: \"%s\")", (unsigned)(e->hit_marker_code & 0xFF),
                     e->hit_marker_row, cinfo->output_height, e->hit_marker_unread, e->hit_marker_warning);
        } else {
            snprintf(decoder->err.message, sizeof decoder->err.message,
                     "the scan data runs out at row %u of %u: it is corrupt, or the header states a larger "
                     "image than was stored (libjpeg: \"%s\")", e->hit_marker_row, cinfo->output_height,
                     e->hit_marker_warning);
        }
        return decoder->err.failed = IRIS_JPEG_ERROR;
    }
    return IRIS_JPEG_OK;
}

const char *iris_jpeg_decoder_message(const iris_jpeg_decoder *decoder) {
    return decoder->err.message;
}

void iris_jpeg_decoder_destroy(iris_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    iris_scan_source_free(&decoder->source);
    free(decoder);
}

// MARK: - Encoder

// A growable output buffer owned by the encoder (libjpeg's jpeg_mem_dest loses track of its
// buffer when an error interrupts compression, so we keep our own).
typedef struct iris_jpeg_destination {
    struct jpeg_destination_mgr pub;
    unsigned char *bytes;
    size_t capacity;
    size_t size;
} iris_jpeg_destination;

struct iris_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    iris_jpeg_error err;
    iris_jpeg_destination dest;
    int created;
};

static void iris_dest_init(j_compress_ptr cinfo) {
    iris_jpeg_destination *dest = (iris_jpeg_destination *)cinfo->dest;
    if (dest->bytes == NULL) {
        dest->capacity = 64 * 1024;
        dest->bytes = malloc(dest->capacity);
        if (dest->bytes == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    dest->size = 0;
    dest->pub.next_output_byte = dest->bytes;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean iris_dest_empty(j_compress_ptr cinfo) {
    iris_jpeg_destination *dest = (iris_jpeg_destination *)cinfo->dest;
    size_t used = dest->capacity; // libjpeg calls this only when the buffer is full
    size_t capacity = dest->capacity * 2;
    unsigned char *bytes = realloc(dest->bytes, capacity);
    if (bytes == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    dest->bytes = bytes;
    dest->capacity = capacity;
    dest->pub.next_output_byte = bytes + used;
    dest->pub.free_in_buffer = capacity - used;
    return TRUE;
}

static void iris_dest_term(j_compress_ptr cinfo) {
    iris_jpeg_destination *dest = (iris_jpeg_destination *)cinfo->dest;
    dest->size = dest->capacity - dest->pub.free_in_buffer;
}

static int iris_encoder_fail(iris_jpeg_encoder *encoder) {
    if (!encoder->err.failed) encoder->err.failed = IRIS_JPEG_ERROR;
    return encoder->err.failed;
}

// Every band of every component in its own scan, each refined bit by bit: valid, and about
// 630 scans per component.
static void iris_exhaustive_script(j_compress_ptr cinfo) {
    const int top_al = 9;
    int components = cinfo->num_components;
    int count = 1 + components * 63 * (top_al + 1);
    jpeg_scan_info *scans = (jpeg_scan_info *)(*cinfo->mem->alloc_small)(
        (j_common_ptr)cinfo, JPOOL_IMAGE, (size_t)count * sizeof(jpeg_scan_info));
    int n = 0;
    scans[n].comps_in_scan = components;
    for (int c = 0; c < components; c++) scans[n].component_index[c] = c;
    scans[n].Ss = 0; scans[n].Se = 0; scans[n].Ah = 0; scans[n].Al = 0;
    n++;
    for (int c = 0; c < components; c++) {
        for (int k = 1; k < DCTSIZE2; k++) {
            for (int al = top_al; al >= 0; al--) {
                scans[n].comps_in_scan = 1;
                scans[n].component_index[0] = c;
                scans[n].Ss = k; scans[n].Se = k;
                scans[n].Ah = al == top_al ? 0 : al + 1;
                scans[n].Al = al;
                n++;
            }
        }
    }
    cinfo->scan_info = scans;
    cinfo->num_scans = n;
}

iris_jpeg_encoder *iris_jpeg_encoder_create(const iris_jpeg_encode_options *options) {
    iris_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return NULL;
    iris_error_init(&encoder->err);
    encoder->cinfo.err = &encoder->err.pub;
    if (setjmp(encoder->err.jump)) {
        iris_encoder_fail(encoder);
        return encoder;
    }
    jpeg_create_compress(&encoder->cinfo);
    encoder->created = 1;
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;

    J_COLOR_SPACE in_space, out_space;
    int in_components;
    switch (options->input_color_space) {
    case IRIS_JPEG_CS_GRAY: in_space = JCS_GRAYSCALE; in_components = 1; break;
    case IRIS_JPEG_CS_RGBX: in_space = JCS_EXT_RGBX; in_components = 4; break;
    case IRIS_JPEG_CS_CMYK: in_space = JCS_CMYK; in_components = 4; break;
    default:
        iris_set_message(&encoder->err, "unsupported input colour space");
        encoder->err.failed = IRIS_JPEG_ERROR;
        return encoder;
    }
    switch (options->jpeg_color_space) {
    case IRIS_JPEG_CS_GRAY: out_space = JCS_GRAYSCALE; break;
    case IRIS_JPEG_CS_YCBCR: out_space = JCS_YCbCr; break;
    case IRIS_JPEG_CS_CMYK: out_space = JCS_CMYK; break;
    case IRIS_JPEG_CS_YCCK: out_space = JCS_YCCK; break;
    default:
        iris_set_message(&encoder->err, "unsupported JPEG colour space");
        encoder->err.failed = IRIS_JPEG_ERROR;
        return encoder;
    }
    if (options->width <= 0 || options->height <= 0) {
        iris_set_message(&encoder->err, "the image is empty");
        encoder->err.failed = IRIS_JPEG_ERROR;
        return encoder;
    }

    encoder->dest.pub.init_destination = iris_dest_init;
    encoder->dest.pub.empty_output_buffer = iris_dest_empty;
    encoder->dest.pub.term_destination = iris_dest_term;
    cinfo->dest = &encoder->dest.pub;

    cinfo->image_width = (JDIMENSION)options->width;
    cinfo->image_height = (JDIMENSION)options->height;
    cinfo->in_color_space = in_space;
    cinfo->input_components = in_components;
    jpeg_set_defaults(cinfo);
    jpeg_set_colorspace(cinfo, out_space); // errors for an impossible conversion
    int quality = options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality;
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->dct_method = JDCT_ISLOW;
    if (!options->subsample_chroma) {
        for (int c = 0; c < cinfo->num_components; c++) {
            cinfo->comp_info[c].h_samp_factor = 1;
            cinfo->comp_info[c].v_samp_factor = 1;
        }
    }
    if (out_space == JCS_CMYK) cinfo->write_Adobe_marker = options->adobe_marker ? TRUE : FALSE;
    if (options->scans == IRIS_JPEG_SCANS_PROGRESSIVE) jpeg_simple_progression(cinfo);
    if (options->scans == IRIS_JPEG_SCANS_EXHAUSTIVE) iris_exhaustive_script(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    return encoder;
}

int iris_jpeg_encoder_write_icc_profile(iris_jpeg_encoder *encoder, const unsigned char *bytes, unsigned int size) {
    if (encoder->err.failed) return encoder->err.failed;
    if (setjmp(encoder->err.jump)) return iris_encoder_fail(encoder);
    jpeg_write_icc_profile(&encoder->cinfo, bytes, size);
    return IRIS_JPEG_OK;
}

int iris_jpeg_encoder_write_rows(iris_jpeg_encoder *encoder, const unsigned char *rows, size_t stride, int count) {
    if (encoder->err.failed) return encoder->err.failed;
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    if (setjmp(encoder->err.jump)) return iris_encoder_fail(encoder);
    JSAMPROW pointers[16];
    int written = 0;
    while (written < count) {
        int batch = count - written < 16 ? count - written : 16;
        for (int i = 0; i < batch; i++) {
            pointers[i] = (JSAMPROW)(rows + (size_t)(written + i) * stride);
        }
        JDIMENSION done = jpeg_write_scanlines(cinfo, pointers, (JDIMENSION)batch);
        if (done == 0) {
            iris_set_message(&encoder->err, "the JPEG encoder took no rows (more rows than the image has?)");
            return encoder->err.failed = IRIS_JPEG_ERROR;
        }
        written += (int)done;
    }
    return IRIS_JPEG_OK;
}

int iris_jpeg_encoder_finish(iris_jpeg_encoder *encoder, const unsigned char **bytes, size_t *size) {
    *bytes = NULL;
    *size = 0;
    if (encoder->err.failed) return encoder->err.failed;
    if (setjmp(encoder->err.jump)) return iris_encoder_fail(encoder);
    jpeg_finish_compress(&encoder->cinfo);
    *bytes = encoder->dest.bytes;
    *size = encoder->dest.size;
    return IRIS_JPEG_OK;
}

const char *iris_jpeg_encoder_message(const iris_jpeg_encoder *encoder) {
    return encoder->err.message;
}

void iris_jpeg_encoder_destroy(iris_jpeg_encoder *encoder) {
    if (encoder == NULL) return;
    if (encoder->created) jpeg_destroy_compress(&encoder->cinfo);
    free(encoder->dest.bytes);
    free(encoder);
}

#endif
