#if canImport(CJPEG)
/// The codecs Iris uses on this platform: the C libraries (libjpeg-turbo, libpng, libwebp,
/// giflib, libavif, libheif, libjxl, FFmpeg, libtiff, gdk-pixbuf, librsvg), wherever they can be
/// imported (Linux).
enum PlatformCodecs {
    static let decoders: [any ImageDecoding] =
        [JPEGDecoder(), PNGDecoder(), WebPDecoder(), GIFDecoder()]
        + [AVIFDecoder(), HEIFDecoder(), JXLDecoder()]  // libavif, libheif, libjxl
        + [VideoDecoder()]  // FFmpeg
        + [TIFFDecoder()]  // libtiff
        + [GdkPixbufDecoder()]  // gdk-pixbuf: BMP, ICO
        + [SVGDecoder()]  // librsvg: SVG, rasterised
    static let encoders: [any ImageEncoding] =
        [JPEGEncoder(), PNGEncoder(), WebPEncoder(), GIFEncoder()]
        + [AVIFEncoder()]  // libavif
    static let animationEncoders: [any AnimationEncoding] = [AnimatedWebPEncoder(), AnimatedGIFEncoder()]
}
#elseif canImport(ImageIO)
/// The codecs Iris uses on this platform: ImageIO, and AVFoundation for videos' posters (Apple
/// platforms; watchOS has no AVFoundation asset reader or image generator, so no video there).
enum PlatformCodecs {
    #if os(watchOS)
    static let decoders: [any ImageDecoding] = [ImageIODecoder()]
    #else
    static let decoders: [any ImageDecoding] = [ImageIODecoder(), AVFoundationVideoDecoder()]
    #endif
    static let encoders: [any ImageEncoding] = [
        ImageIOEncoder(format: .jpeg), ImageIOEncoder(format: .png), ImageIOEncoder(format: .webp),
        ImageIOEncoder(format: .gif),
    ]
    static let animationEncoders: [any AnimationEncoding] = []
}
#endif
