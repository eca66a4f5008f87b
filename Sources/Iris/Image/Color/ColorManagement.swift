/// What a decode does with an image's colour space.
public enum ColorManagement: Sendable, Hashable {
    /// Convert tagged pixels to sRGB after shrinking (what a browser shows); the bitmap is then
    /// ``ColorSpace/sRGB``. Untagged and sRGB images are left exactly as decoded.
    case convertToSRGB
    /// Keep the numbers as stored and tag the bitmap with their ``ColorSpace``: for a
    /// colour-managed display (Apple platforms draw a tagged `CGImage` correctly) or to write
    /// the same profile out again. CMYK is always converted (a bitmap has no CMYK layout).
    case keepSource

    /// The platform's default: on Apple platforms ``keepSource`` (Core Animation manages colour,
    /// and a Display P3 photo keeps its gamut on a P3 screen); elsewhere ``convertToSRGB``.
    public static var platformDefault: ColorManagement {
        #if canImport(CoreGraphics)
        .keepSource
        #else
        .convertToSRGB
        #endif
    }
}
