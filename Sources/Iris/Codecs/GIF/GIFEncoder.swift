#if canImport(CGIF)
import Foundation

/// Encodes a still GIF with giflib: one full-size frame of at most 256 colours
/// (``GIFIndexedImage``: exact when the image has few enough, else giflib's median cut), a
/// pixel whose alpha is below half written transparent.
///
/// Premultiplied colour is unpremultiplied first (straight alpha is used as it is). GIF is at
/// most 65,535 pixels on a side; ``EncodeOptions`` are ignored (GIF has no quality), and no
/// colour profile is written: write sRGB pixels (what decoding does by default).
struct GIFEncoder: ImageEncoding {
    /// Makes an encoder.
    init() {}

    /// GIF.
    var format: ImageFormat { .gif }

    /// The GIF of `bitmap`.
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        let indexed = try GIFIndexedImage(bitmap)
        let writer = try GIFWriter(size: bitmap.size, firstFrame: indexed, netscapeLoops: nil)
        try writer.add(indexed, delayCentiseconds: 0, disposal: .unspecified)
        return try writer.finish()
    }
}
#endif
