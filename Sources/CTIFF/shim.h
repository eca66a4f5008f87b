// libtiff reports errors through per-file handlers (TIFFOpenOptions) and return codes: no
// longjmp, no shim code. Not linked: opened on first use (scripts/make-lazy-codec-stubs).
#include <tiffio.h>
