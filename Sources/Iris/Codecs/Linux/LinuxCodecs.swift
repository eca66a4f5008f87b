#if canImport(CJPEG)
/// The codecs Iris uses on this platform: the field's C libraries on Linux.
enum PlatformCodecs {
    static let decoders: [any ImageDecoding] = [JPEGDecoder(), PNGDecoder(), WebPDecoder(), GIFDecoder()]
    static let encoders: [any ImageEncoding] = [JPEGEncoder(), PNGEncoder(), WebPEncoder()]
}
#endif
