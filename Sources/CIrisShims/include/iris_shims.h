#ifndef IRIS_SHIMS_H
#define IRIS_SHIMS_H
// Wrappers over the libjpeg and libpng calls that report errors by longjmp: each returns an
// error code and a message instead, so Swift never sees a longjmp.
#endif
