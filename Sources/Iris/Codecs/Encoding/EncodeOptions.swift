/// Options for ``ImageEncoding`` and ``AnimationEncoding``.
public struct EncodeOptions: Sendable, Hashable {
    /// Quality 0–100 for lossy formats.
    public var quality: Int
    /// Progressive JPEG.
    public var progressive: Bool
    /// Lossless WebP.
    public var lossless: Bool

    /// Makes options; defaults are JPEG quality 85, baseline, lossy.
    public init(quality: Int = 85, progressive: Bool = false, lossless: Bool = false) {
        self.quality = quality
        self.progressive = progressive
        self.lossless = lossless
    }
}
