// Little CMS 2 (Debian liblcms2-dev, 2.14): ICC profiles and colour transforms on Linux.
#include <lcms2.h>

// lcms2's pixel-format macros are built from function-like macros, which Swift does not
// import; these constants carry the ones Iris uses.
static const cmsUInt32Number IRIS_LCMS_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number IRIS_LCMS_TYPE_RGBA_8_PREMUL = TYPE_RGBA_8_PREMUL;
static const cmsUInt32Number IRIS_LCMS_TYPE_BGRA_8 = TYPE_BGRA_8;
static const cmsUInt32Number IRIS_LCMS_TYPE_BGRA_8_PREMUL = TYPE_BGRA_8_PREMUL;
static const cmsUInt32Number IRIS_LCMS_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number IRIS_LCMS_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number IRIS_LCMS_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number IRIS_LCMS_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
