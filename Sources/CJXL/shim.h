// libjxl reports every error through its return codes (JxlDecoderStatus): no longjmp, no shim code.
#include <stddef.h>
#include <jxl/decode.h>
