// The few functions of gdk-pixbuf and GLib that Iris calls (BMP and ICO), declared as their
// headers declare them. Their headers need pkg-config's include flags, and a system library
// given those through pkg-config is linked too: with GLib, GObject and GIO that is some 15
// libraries at every start. So Iris declares them here and opens the libraries on first use
// (CIrisShims/lazy_codecs.c); scripts/make-lazy-codec-stubs compiles these declarations
// together with the real headers, so a difference stops it.
#ifndef IRIS_CGDKPIXBUF_SHIM_H
#define IRIS_CGDKPIXBUF_SHIM_H
typedef char gchar;
typedef int gint;
typedef gint gboolean;
typedef unsigned char guchar;
typedef unsigned char guint8;
typedef unsigned int guint32;
typedef unsigned long gsize;
typedef void *gpointer;
typedef guint32 GQuark;

typedef struct _GError GError;
// GLib's public fields (stable since GLib 2.0); skipped when the check includes GLib's own.
#ifndef __G_ERROR_H__
struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
};
#endif
void g_error_free(GError *error);
void g_object_unref(gpointer object);

typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GdkPixbufLoader GdkPixbufLoader;
GdkPixbufLoader *gdk_pixbuf_loader_new_with_type(const char *image_type, GError **error);
gboolean gdk_pixbuf_loader_write(GdkPixbufLoader *loader, const guchar *buf, gsize count, GError **error);
gboolean gdk_pixbuf_loader_close(GdkPixbufLoader *loader, GError **error);
GdkPixbuf *gdk_pixbuf_loader_get_pixbuf(GdkPixbufLoader *loader);
int gdk_pixbuf_get_width(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_height(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_n_channels(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_bits_per_sample(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_rowstride(const GdkPixbuf *pixbuf);
gboolean gdk_pixbuf_get_has_alpha(const GdkPixbuf *pixbuf);
const guint8 *gdk_pixbuf_read_pixels(const GdkPixbuf *pixbuf);
#endif
