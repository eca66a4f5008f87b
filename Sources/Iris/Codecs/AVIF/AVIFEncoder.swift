#if canImport(CAVIF)
import CAVIF
import Foundation

/// Encodes AVIF with libavif (AV1 through the encoder libavif was built with: libaom on Debian).
///
/// Lossy: 4:2:0 with the quality (0–100) mapped linearly onto AV1's quantizer (63–0); alpha,
/// when the bitmap has it, at the same quantizer. Lossless: 4:4:4 with the identity matrix
/// (RGB stored as it is) and quantizer 0. Premultiplied colour is un-premultiplied by libavif
/// (AVIF stores straight alpha).
struct AVIFEncoder: ImageEncoding {
    /// Makes an encoder.
    init() {}

    /// AVIF.
    var format: ImageFormat { .avif }

    /// libavif's speed (0 slowest … 10 fastest): 8 keeps a 12 MP encode within seconds.
    static let speed: Int32 = 8

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw .encodingFailed(format: .avif, reason: "the image \(bitmap.size) is empty")
        }
        let source = bitmap.format == .gray8 ? bitmap.converted(to: .rgbx8) : bitmap
        let lossless = options.lossless
        guard
            let image = avifImageCreate(
                UInt32(source.width), UInt32(source.height), 8,
                lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420)
        else {
            throw .encodingFailed(format: .avif, reason: "libavif could not make an image")
        }
        defer { avifImageDestroy(image) }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if lossless { image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY) }

        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = source.format.isBlueFirst ? AVIF_RGB_FORMAT_BGRA : AVIF_RGB_FORMAT_RGBA
        rgb.alphaPremultiplied = source.format.hasAlpha ? AVIF_TRUE : AVIF_FALSE
        rgb.ignoreAlpha = source.format.hasAlpha ? AVIF_FALSE : AVIF_TRUE
        rgb.rowBytes = UInt32(source.bytesPerRow)
        let converted: avifResult = source.withUnsafeBytes { pixels in
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return avifImageRGBToYUV(image, &rgb)
        }
        guard converted == AVIF_RESULT_OK else { throw Self.error(converted, doing: "converting to YUV") }

        guard let encoder = avifEncoderCreate() else {
            throw .encodingFailed(format: .avif, reason: "libavif could not make an encoder")
        }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = lossless ? 0 : Int32((100 - min(max(options.quality, 0), 100)) * 63 / 100)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.speed = Self.speed
        encoder.pointee.maxThreads = 2
        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        let written = avifEncoderWrite(encoder, image, &output)
        guard written == AVIF_RESULT_OK, let bytes = output.data else { throw Self.error(written, doing: "encoding") }
        return Data(bytes: bytes, count: output.size)
    }

    private static func error(_ result: avifResult, doing what: String) -> ImageError {
        .encodingFailed(format: .avif, reason: "libavif failed \(what): \(String(cString: avifResultToString(result)))")
    }
}
#endif
