// The few functions of librsvg that Iris calls (SVG), declared as its headers declare them, and
// cairo's own header (it needs no flags). librsvg's headers need pkg-config's include flags (GLib,
// GIO, gdk-pixbuf), and a system library given those through pkg-config is linked too: librsvg
// with cairo, pango and GLib is some 40 libraries at every start. So Iris declares them here and
// opens librsvg and cairo on first use (CIrisShims/lazy_codecs.c); scripts/make-lazy-codec-stubs
// compiles these declarations together with the real headers, so a difference stops it.
// GError and the two GLib functions that free things are CGdkPixbuf's.
#ifndef IRIS_CRSVG_SHIM_H
#define IRIS_CRSVG_SHIM_H
#include <cairo/cairo.h>

typedef struct _GError GError;
typedef struct _RsvgHandle RsvgHandle;
typedef struct _RsvgRectangle RsvgRectangle;
// librsvg's public structs (stable since 2.46); skipped when the check includes librsvg's own.
#ifndef RSVG_H
struct _RsvgRectangle {
    double x;
    double y;
    double width;
    double height;
};
typedef enum {
    RSVG_UNIT_PERCENT,
    RSVG_UNIT_PX,
    RSVG_UNIT_EM,
    RSVG_UNIT_EX,
    RSVG_UNIT_IN,
    RSVG_UNIT_CM,
    RSVG_UNIT_MM,
    RSVG_UNIT_PT,
    RSVG_UNIT_PC
} RsvgUnit;
typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;
#endif

// Loads from memory with no base file: librsvg then resolves no reference to another file or URL.
RsvgHandle *rsvg_handle_new_from_data(const unsigned char *data, unsigned long data_len, GError **error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
void rsvg_handle_get_intrinsic_dimensions(
    RsvgHandle *handle, int *out_has_width, RsvgLength *out_width, int *out_has_height, RsvgLength *out_height,
    int *out_has_viewbox, RsvgRectangle *out_viewbox);
int rsvg_handle_get_geometry_for_layer(
    RsvgHandle *handle, const char *id, const RsvgRectangle *viewport, RsvgRectangle *out_ink_rect,
    RsvgRectangle *out_logical_rect, GError **error);
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
#endif
