// FFmpeg's demuxers (libavformat), decoders (libavcodec), scaler (libswscale) and utilities
// (libavutil): video posters and frames on Linux. Errors come back as negative return codes: no
// longjmp, no shim code. Not linked (the module map names no library): libavcodec alone brings in
// dozens of codec libraries, so they are opened on first use (CIrisShims/lazy_codecs.c).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
