#if !canImport(CJPEG) && canImport(ImageIO)
/// The codecs Iris uses on this platform: ImageIO on Apple platforms.
enum PlatformCodecs {
    static let decoders: [any ImageDecoding] = []
    static let encoders: [any ImageEncoding] = []
}
#endif
