#ifndef IRIS_JPEG_DC_ONLY_H
#define IRIS_JPEG_DC_ONLY_H
// Decoding a progressive JPEG at 1/8 scale from its DC coefficients alone (private to the shim).
//
// At scale 1/8 libjpeg-turbo turns each 8×8 block of a component whose DCT is scaled to 1×1
// into one pixel from the block's DC coefficient alone; the 63 AC coefficients are never read.
// A progressive file stores them in scans of their own (most of the file), and libjpeg keeps
// every coefficient of the image (64 per block, 2 bytes each: 73 MB for a 12 MP 4:4:4 photo)
// until the last scan is in. Two pieces let such a decode skip both:
//
// - a source manager over the file in memory that, once planned, hands libjpeg the file without
//   the AC scans of those components (the scans are cut out at marker boundaries, so libjpeg
//   reads a valid progressive file that simply has no AC scans for them);
// - a store for those components' coefficient arrays behind libjpeg's memory manager hooks
//   (request_virt_barray, access_virt_barray): it keeps one DC coefficient per block and lends
//   libjpeg a window of a few block rows at a time, so 73 MB become about 1 MB.
//
// The output is bit for bit what the whole file gives with block smoothing off (smoothing
// guesses missing AC coefficients, and changes DC when none are there, so it is turned off).
// Only files whose marker structure reads cleanly to an EOI are planned; anything else
// (truncated data, previews of a download in progress, odd markers) is decoded whole as before.

#ifdef __linux__

#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

/// The source manager: the file in memory, as a list of byte ranges to hand libjpeg in turn.
typedef struct iris_jpeg_scan_source {
    struct jpeg_source_mgr pub;
    const JOCTET *data;
    size_t size;
    /// Pairs of [start, end) offsets; `initial` until a plan replaces it.
    size_t *ranges;
    size_t initial[2];
    int range_count;
    int next_range;
    /// Scans left out by the plan.
    int skipped_scans;
} iris_jpeg_scan_source;

/// Installs `source` as `cinfo`'s source over `size` bytes at `data` (the whole file, like
/// jpeg_mem_src, until a plan is made).
void iris_scan_source_init(j_decompress_ptr cinfo, iris_jpeg_scan_source *source, const JOCTET *data, size_t size);

/// Frees the plan's ranges.
void iris_scan_source_free(iris_jpeg_scan_source *source);

/// Bytes of the data after libjpeg's read position (as jpeg_mem_src's bytes_in_buffer would be).
size_t iris_scan_source_unread(const iris_jpeg_scan_source *source);

/// After jpeg_read_header, before jpeg_start_decompress: plans to leave out every AC scan
/// (Ss > 0) whose components are all in `component_mask` (bit ci for comp_info[ci]). Returns 1
/// when planned, 0 when the file is read whole (its structure does not read cleanly to an EOI),
/// -1 when the file has more than `max_scans` scans.
int iris_scan_source_skip_ac_scans(j_decompress_ptr cinfo, iris_jpeg_scan_source *source,
                                   unsigned int component_mask, int max_scans);

/// One component's coefficients kept as DC only.
typedef struct iris_dc_array iris_dc_array;

/// The DC-only store of one decompressor, wrapping its memory manager's methods.
typedef struct iris_dc_store {
    /// Components (bit ci) whose coefficient arrays are kept as DC only.
    unsigned int component_mask;
    /// Coefficient arrays requested so far (libjpeg requests one per component, in order).
    int requests;
    /// The arrays this store holds, by component (NULL for one libjpeg's own manager holds).
    iris_dc_array *arrays[MAX_COMPONENTS];
    jvirt_barray_ptr (*request_virt_barray)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    JBLOCKARRAY (*access_virt_barray)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
} iris_dc_store;

/// Wraps `cinfo`'s memory manager (after jpeg_create_decompress). Until a component mask is
/// set the store passes every call on.
void iris_dc_store_install(j_decompress_ptr cinfo, iris_dc_store *store);

/// The store of `cinfo` (defined by the shim that owns the decompressor).
iris_dc_store *iris_dc_store_of(j_common_ptr cinfo);

#endif
#endif
