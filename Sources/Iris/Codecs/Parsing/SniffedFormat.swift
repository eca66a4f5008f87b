/// What the first bytes of a file say it is.
struct SniffedFormat: Sendable, Hashable {
    /// The container format.
    var format: ImageFormat
    /// Whether the container says it is animated (APNG, animated WebP; GIF is checked when decoded).
    var isAnimated: Bool
    /// For WebP: which kind of bitstream.
    var webPKind: WebPKind?

    /// The kinds of WebP bitstream.
    enum WebPKind: String, Sendable, Hashable {
        /// VP8: lossy.
        case lossy
        /// VP8L: lossless.
        case lossless
        /// VP8X: extended (alpha, animation, metadata).
        case extended
    }
}
