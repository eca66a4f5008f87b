// libheif reports every error through its return values (struct heif_error): no longjmp, no shim code.
#include <libheif/heif.h>
