/* The floor under any libwebp-based thumbnailer that decodes one file at a time: reads each
 * file named on the command line and decodes it with libwebp alone, shrunk while decoding to fit
 * a SIZE box, with the options Iris uses for a shrink of four times or more (no smooth chroma
 * upsampling, no deblocking filter, libwebp's worker thread on). Encodes and writes nothing.
 * Usage: webp_floor SIZE FILE...   Exit status 1 on the first file that does not decode. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <webp/decode.h>

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    unsigned char *bytes = NULL;
    if (fseek(file, 0, SEEK_END) == 0) {
        long length = ftell(file);
        if (length > 0 && fseek(file, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)length))) {
            if (fread(bytes, 1, (size_t)length, file) == (size_t)length) {
                *size = (size_t)length;
            } else {
                free(bytes);
                bytes = NULL;
            }
        }
    }
    fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIZE FILE...\n", argv[0]);
        return 2;
    }
    const double box = atof(argv[1]);
    for (int i = 2; i < argc; i++) {
        size_t size = 0;
        unsigned char *bytes = read_file(argv[i], &size);
        WebPDecoderConfig config;
        if (!bytes || !WebPInitDecoderConfig(&config) || WebPGetFeatures(bytes, size, &config.input) != VP8_STATUS_OK) {
            fprintf(stderr, "%s: not a readable WebP file\n", argv[i]);
            return 1;
        }
        const int width = config.input.width, height = config.input.height;
        const double scale = fmin(1.0, fmin(box / width, box / height));
        const int out_width = (int)fmax(1, lround(width * scale)), out_height = (int)fmax(1, lround(height * scale));
        config.options.use_threads = 1;
        if (out_width < width || out_height < height) {
            config.options.use_scaling = 1;
            config.options.scaled_width = out_width;
            config.options.scaled_height = out_height;
            config.options.no_fancy_upsampling = out_width * 2 <= width && out_height * 2 <= height;
            config.options.bypass_filtering = out_width * 4 <= width && out_height * 4 <= height;
        }
        config.output.colorspace = MODE_RGBA;
        const VP8StatusCode status = WebPDecode(bytes, size, &config);
        WebPFreeDecBuffer(&config.output);
        free(bytes);
        if (status != VP8_STATUS_OK) {
            fprintf(stderr, "%s: libwebp status %d\n", argv[i], (int)status);
            return 1;
        }
    }
    return 0;
}
