// libavif reports every error through its return codes (avifResult): no longjmp, no shim code.
#include <avif/avif.h>
