// Decoding a progressive JPEG at 1/8 scale from its DC coefficients alone: see jpeg_dc_only.h.
#include "jpeg_dc_only.h"

#ifdef __linux__

#include <stdlib.h>
#include <string.h>
#include <jerror.h>

// MARK: - Source manager

static void scan_source_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static void scan_source_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

// Hands libjpeg the next range; past the last, an EOI marker with libjpeg's "premature end"
// warning, as jpeg_mem_src does.
static boolean scan_source_fill(j_decompress_ptr cinfo) {
    static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
    iris_jpeg_scan_source *source = (iris_jpeg_scan_source *)cinfo->src;
    if (source->next_range < source->range_count) {
        size_t start = source->ranges[2 * source->next_range];
        size_t end = source->ranges[2 * source->next_range + 1];
        source->next_range++;
        source->pub.next_input_byte = source->data + start;
        source->pub.bytes_in_buffer = end - start;
        return TRUE;
    }
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->pub.next_input_byte = eoi;
    source->pub.bytes_in_buffer = 2;
    return TRUE;
}

static void scan_source_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while (count > (long)source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)scan_source_fill(cinfo);
    }
    source->next_input_byte += (size_t)count;
    source->bytes_in_buffer -= (size_t)count;
}

void iris_scan_source_init(j_decompress_ptr cinfo, iris_jpeg_scan_source *source, const JOCTET *data, size_t size) {
    source->pub.init_source = scan_source_init_source;
    source->pub.fill_input_buffer = scan_source_fill;
    source->pub.skip_input_data = scan_source_skip;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = scan_source_term_source;
    source->data = data;
    source->size = size;
    source->initial[0] = 0;
    source->initial[1] = size;
    source->ranges = source->initial;
    source->range_count = 1;
    source->next_range = 1;
    source->skipped_scans = 0;
    source->pub.next_input_byte = data;
    source->pub.bytes_in_buffer = size;
    cinfo->src = &source->pub;
}

void iris_scan_source_free(iris_jpeg_scan_source *source) {
    if (source->ranges != source->initial) free(source->ranges);
    source->ranges = source->initial;
}

size_t iris_scan_source_unread(const iris_jpeg_scan_source *source) {
    const JOCTET *at = source->pub.next_input_byte;
    if (at < source->data || at > source->data + source->size) return source->pub.bytes_in_buffer;
    return source->size - (size_t)(at - source->data);
}

// MARK: - Planning

#define SOS_MARKER 0xDA

// The offset of the marker (its first FF, fill bytes included) that ends the entropy-coded
// data from `at`, or `size` when the data ends first. Inside entropy-coded data an FF is
// followed by 00 (a stuffed byte) or a restart marker.
static size_t entropy_end(const JOCTET *data, size_t size, size_t at) {
    while (at < size) {
        const JOCTET *found = memchr(data + at, 0xFF, size - at);
        if (found == NULL) return size;
        size_t ff = (size_t)(found - data);
        size_t next = ff + 1;
        while (next < size && data[next] == 0xFF) next++;
        if (next >= size) return size;
        JOCTET code = data[next];
        if (code == 0x00 || (code >= JPEG_RST0 && code <= JPEG_RST0 + 7)) {
            at = next + 1;
            continue;
        }
        return ff;
    }
    return size;
}

static int is_frame_marker(JOCTET code) {
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    return code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC;
}

typedef struct range_list {
    size_t *pairs;
    int count;
    int capacity;
} range_list;

static int range_list_add(range_list *list, size_t start, size_t end) {
    if (end <= start) return 1;
    if (list->count == list->capacity) {
        int capacity = list->capacity ? list->capacity * 2 : 16;
        size_t *pairs = realloc(list->pairs, (size_t)capacity * 2 * sizeof(size_t));
        if (pairs == NULL) return 0;
        list->pairs = pairs;
        list->capacity = capacity;
    }
    list->pairs[2 * list->count] = start;
    list->pairs[2 * list->count + 1] = end;
    list->count++;
    return 1;
}

// Whether the scan whose SOS segment (marker at `sos`, `length` bytes after the marker code) is
// an AC scan of masked components only; -1 when the header does not read cleanly.
static int scan_is_skippable(j_decompress_ptr cinfo, const JOCTET *data, size_t sos, size_t length,
                             unsigned int mask) {
    int components = data[sos + 4];
    if (components < 1 || components > MAX_COMPS_IN_SCAN || length != (size_t)(6 + 2 * components)) return -1;
    int skippable = data[sos + 5 + 2 * components] > 0; // Ss: the first coefficient of the band
    for (int c = 0; c < components; c++) {
        int id = data[sos + 5 + 2 * c];
        int index = -1;
        for (int ci = 0; ci < cinfo->num_components; ci++) {
            if (cinfo->comp_info[ci].component_id == id) index = ci;
        }
        if (index < 0) return -1;
        if (!(mask >> index & 1)) skippable = 0;
    }
    return skippable;
}

int iris_scan_source_skip_ac_scans(j_decompress_ptr cinfo, iris_jpeg_scan_source *source,
                                   unsigned int component_mask, int max_scans) {
    // The plan starts where libjpeg stands: in the first scan's data, the file still one range.
    if (source->ranges != source->initial || source->next_range != 1) return 0;
    // A scan names its components by id: with two components of one id, which one a scan means
    // is libjpeg's guess, so such a file is read whole.
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        for (int other = 0; other < ci; other++) {
            if (cinfo->comp_info[ci].component_id == cinfo->comp_info[other].component_id) return 0;
        }
    }
    const JOCTET *data = source->data;
    size_t size = source->size;
    size_t kept_start = size - source->pub.bytes_in_buffer;
    range_list kept = {NULL, 0, 0};
    int scans = 1, skipped = 0, result = 0;
    size_t at = entropy_end(data, size, kept_start);
    while (at < size) {
        size_t marker = at; // the first FF, fill bytes included
        while (at + 1 < size && data[at + 1] == 0xFF) at++;
        if (at + 1 >= size) break;
        JOCTET code = data[at + 1];
        if (code == JPEG_EOI) {
            result = range_list_add(&kept, kept_start, at + 2) ? 1 : 0;
            break;
        }
        if ((code >= JPEG_RST0 && code <= JPEG_RST0 + 7) || code == 0x01) { // stray standalone markers
            at += 2;
            continue;
        }
        if (code == 0x00 || code == 0xD8 || is_frame_marker(code) || at + 4 > size) break;
        size_t length = (size_t)data[at + 2] << 8 | data[at + 3];
        if (length < 2 || at + 2 + length > size) break;
        if (code != SOS_MARKER) { // tables, restart interval, comments, APPn
            at += 2 + length;
            continue;
        }
        if (max_scans > 0 && ++scans > max_scans) {
            result = -1;
            break;
        }
        int skippable = scan_is_skippable(cinfo, data, at, length, component_mask);
        if (skippable < 0) break;
        size_t end = entropy_end(data, size, at + 2 + length);
        if (end >= size) break;
        if (skippable) {
            if (!range_list_add(&kept, kept_start, marker)) break;
            kept_start = end;
            skipped++;
        }
        at = end;
    }
    if (result != 1 || skipped == 0) {
        free(kept.pairs);
        return result < 0 ? -1 : 0;
    }
    source->ranges = kept.pairs;
    source->range_count = kept.count;
    source->next_range = 0;
    source->skipped_scans = skipped;
    (void)scan_source_fill(cinfo);
    return 1;
}

// MARK: - DC-only coefficient store

struct iris_dc_array {
    JDIMENSION blocks_per_row;
    JDIMENSION rows;
    /// The most rows libjpeg accesses at once: the window's height.
    JDIMENSION window_capacity;
    /// The rows the window holds: [window_start, window_start + window_count).
    JDIMENSION window_start;
    JDIMENSION window_count;
    /// Whether libjpeg may have written to the window since it was loaded.
    int dirty;
    /// One DC coefficient per block, row by row.
    JCOEF *dc;
    /// The window's blocks (their AC coefficients stay zero: no AC scan of the component is read).
    JBLOCKROW window;
    JBLOCKROW *window_rows;
};

static JDIMENSION round_up(JDIMENSION value, int multiple) {
    return multiple > 1 ? (value + (JDIMENSION)multiple - 1) / (JDIMENSION)multiple * (JDIMENSION)multiple : value;
}

static jvirt_barray_ptr dc_request_virt_barray(j_common_ptr cinfo, int pool_id, boolean pre_zero,
                                               JDIMENSION blocks_per_row, JDIMENSION rows, JDIMENSION max_access) {
    iris_dc_store *store = iris_dc_store_of(cinfo);
    int ci = store->requests++;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (!cinfo->is_decompressor || ci >= dinfo->num_components || ci >= MAX_COMPONENTS
        || !(store->component_mask >> ci & 1) || !pre_zero || pool_id != JPOOL_IMAGE || max_access == 0) {
        return store->request_virt_barray(cinfo, pool_id, pre_zero, blocks_per_row, rows, max_access);
    }
    // libjpeg's coefficient controller asks for one array per component, in order, sized to
    // the component's blocks rounded up to its sampling factors; anything else is passed on.
    const jpeg_component_info *component = &dinfo->comp_info[ci];
    if (blocks_per_row != round_up(component->width_in_blocks, component->h_samp_factor)
        || rows != round_up(component->height_in_blocks, component->v_samp_factor)) {
        return store->request_virt_barray(cinfo, pool_id, pre_zero, blocks_per_row, rows, max_access);
    }
    if (max_access > rows) max_access = rows;
    iris_dc_array *array = (*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, sizeof *array);
    array->blocks_per_row = blocks_per_row;
    array->rows = rows;
    array->window_capacity = max_access;
    array->window_start = 0;
    array->window_count = 0;
    array->dirty = 0;
    size_t dc_bytes = (size_t)blocks_per_row * rows * sizeof(JCOEF);
    array->dc = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, dc_bytes);
    memset(array->dc, 0, dc_bytes);
    size_t window_bytes = (size_t)blocks_per_row * max_access * sizeof(JBLOCK);
    array->window = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, window_bytes);
    memset(array->window, 0, window_bytes);
    array->window_rows = (*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, max_access * sizeof(JBLOCKROW));
    for (JDIMENSION row = 0; row < max_access; row++) {
        array->window_rows[row] = array->window + (size_t)row * blocks_per_row;
    }
    store->arrays[ci] = array;
    return (jvirt_barray_ptr)array;
}

static JBLOCKARRAY dc_access_virt_barray(j_common_ptr cinfo, jvirt_barray_ptr pointer, JDIMENSION start_row,
                                         JDIMENSION row_count, boolean writable) {
    iris_dc_store *store = iris_dc_store_of(cinfo);
    iris_dc_array *array = NULL;
    for (int ci = 0; ci < MAX_COMPONENTS && array == NULL; ci++) {
        if (store->arrays[ci] != NULL && (jvirt_barray_ptr)store->arrays[ci] == pointer) array = store->arrays[ci];
    }
    if (array == NULL) return store->access_virt_barray(cinfo, pointer, start_row, row_count, writable);
    if (row_count > array->window_capacity || start_row + row_count > array->rows || start_row + row_count < start_row) {
        ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    }
    JDIMENSION width = array->blocks_per_row;
    if (start_row < array->window_start || start_row + row_count > array->window_start + array->window_count) {
        if (array->dirty) {
            for (JDIMENSION row = 0; row < array->window_count; row++) {
                JCOEF *dc = array->dc + (size_t)(array->window_start + row) * width;
                JBLOCKROW blocks = array->window_rows[row];
                for (JDIMENSION block = 0; block < width; block++) dc[block] = blocks[block][0];
            }
        }
        JDIMENSION count = array->rows - start_row;
        if (count > array->window_capacity) count = array->window_capacity;
        for (JDIMENSION row = 0; row < count; row++) {
            const JCOEF *dc = array->dc + (size_t)(start_row + row) * width;
            JBLOCKROW blocks = array->window_rows[row];
            for (JDIMENSION block = 0; block < width; block++) blocks[block][0] = dc[block];
        }
        array->window_start = start_row;
        array->window_count = count;
        array->dirty = 0;
    }
    if (writable) array->dirty = 1;
    return array->window_rows + (start_row - array->window_start);
}

void iris_dc_store_install(j_decompress_ptr cinfo, iris_dc_store *store) {
    memset(store, 0, sizeof *store);
    store->request_virt_barray = cinfo->mem->request_virt_barray;
    store->access_virt_barray = cinfo->mem->access_virt_barray;
    cinfo->mem->request_virt_barray = dc_request_virt_barray;
    cinfo->mem->access_virt_barray = dc_access_virt_barray;
}

#endif
