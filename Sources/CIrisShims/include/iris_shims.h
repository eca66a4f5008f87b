#ifndef IRIS_SHIMS_H
#define IRIS_SHIMS_H
// Wrappers over the libjpeg and libpng calls that report errors by longjmp: each returns an
// error code and a message instead, so Swift never sees a longjmp (iris_jpeg_shim.h,
// iris_png_shim.h). And what Swift's Glibc module leaves out:
#if defined(__GLIBC__)
#include <malloc.h>
// Caps glibc's malloc arenas (M_ARENA_MAX) at `count`, before threads allocate; 1 on success.
static inline int iris_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
#endif
#endif
