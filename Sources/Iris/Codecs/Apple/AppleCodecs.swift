#if !canImport(CJPEG) && canImport(ImageIO)
/// The codecs Iris uses on this platform: ImageIO on Apple platforms.
enum PlatformCodecs {
    static let decoders: [any ImageDecoding] = [ImageIODecoder()]
    static let encoders: [any ImageEncoding] = [
        ImageIOEncoder(format: .jpeg), ImageIOEncoder(format: .png), ImageIOEncoder(format: .webp),
    ]
}
#endif
