#if canImport(CWebP)
import CWebP
import Foundation

/// Encodes WebP with libwebp: lossy at ``EncodeOptions/quality`` (0–100), or lossless when
/// ``EncodeOptions/lossless`` is set (exactly: the colour under transparent pixels too, see
/// ``WebPLosslessWriter``).
///
/// Premultiplied colour is unpremultiplied first (straight alpha is written as it is); BGR-order bitmaps go to libwebp's BGRA entry
/// points as they are. An opaque bitmap (``PixelFormat/rgbx8``, ``PixelFormat/bgrx8``,
/// ``PixelFormat/gray8``) is written without an alpha plane: libwebp drops an alpha that is
/// 255 everywhere. WebP is at most 16,383 pixels on a side. The bitmap's ICC profile
/// (``Bitmap/embeddableICCProfile``) is written as an `ICCP` chunk.
struct WebPEncoder: ImageEncoding {
    /// The largest width or height WebP can store.
    static let maxDimension = 16383

    /// Makes an encoder.
    init() {}

    var format: ImageFormat { .webp }

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        try bitmap.size.checkEncodable(as: .webp, maxDimension: Self.maxDimension)
        var straight = bitmap.format == .gray8 ? bitmap.converted(to: .rgbx8) : bitmap
        if straight.format.hasAlpha && straight.isPremultiplied {
            let (stride, width, height) = (straight.bytesPerRow, straight.width, straight.height)
            straight.withUnsafeMutableBytes { bytes in
                for y in 0..<height {
                    PixelConversion.unpremultiplyRGBA(
                        UnsafeMutableRawBufferPointer(rebasing: bytes[(y * stride)..<((y + 1) * stride)]),
                        pixelCount: width)
                }
            }
        }
        let blueFirst = straight.format.isBlueFirst
        if options.lossless {
            let encoded = try straight.withUnsafeBytes { bytes throws(ImageError) in
                try WebPLosslessWriter.encode(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: straight.width,
                    height: straight.height, stride: straight.bytesPerRow, blueFirst: blueFirst)
            }
            return try Self.embeddingProfile(of: bitmap, in: encoded)
        }
        let quality = Float(min(max(options.quality, 0), 100))
        var output: UnsafeMutablePointer<UInt8>?
        let size = straight.withUnsafeBytes { bytes in
            let pixels = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let width = Int32(straight.width), height = Int32(straight.height), stride = Int32(straight.bytesPerRow)
            return blueFirst
                ? WebPEncodeBGRA(pixels, width, height, stride, quality, &output)
                : WebPEncodeRGBA(pixels, width, height, stride, quality, &output)
        }
        guard size > 0, let output else {
            throw .encodingFailed(format: .webp, reason: "libwebp could not encode \(bitmap.size)")
        }
        defer { WebPFree(output) }
        return try Self.embeddingProfile(of: bitmap, in: Data(bytes: output, count: size))
    }

    /// `encoded` with `bitmap`'s profile in an `ICCP` chunk, when it has one to embed.
    private static func embeddingProfile(of bitmap: Bitmap, in encoded: Data) throws(ImageError) -> Data {
        guard let profile = bitmap.embeddableICCProfile else { return encoded }
        return try WebPICCProfile.embedding(profile, in: encoded)
    }
}
#endif
