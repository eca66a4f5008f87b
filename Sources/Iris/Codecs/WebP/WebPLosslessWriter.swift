#if canImport(CWebP)
import CWebP
import Foundation

/// Lossless WebP through libwebp's advanced API with `exact` set: the colour under fully
/// transparent pixels is kept as given. (The simple API, `WebPEncodeLosslessRGBA`, leaves
/// `exact` off and may rewrite that colour to compress better, so a straight-alpha image would
/// not come back as it was.) Effort as the simple API's: the default preset at quality 70.
enum WebPLosslessWriter {
    /// The WebP of `height` rows of `width` straight-alpha pixels, `stride` bytes apart, red
    /// first or blue first.
    static func encode(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, blueFirst: Bool) throws(ImageError) -> Data {
        var config = WebPConfig()
        guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, 70) != 0 else {
            throw .encodingFailed(format: .webp, reason: "libwebp version mismatch")
        }
        config.lossless = 1
        config.exact = 1
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .encodingFailed(format: .webp, reason: "libwebp could not make a picture")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        let imported =
            blueFirst
            ? WebPPictureImportBGRA(&picture, pixels, Int32(stride))
            : WebPPictureImportRGBA(&picture, pixels, Int32(stride))
        guard imported != 0 else {
            throw .encodingFailed(format: .webp, reason: "libwebp could not take the \(width)×\(height) pixels (out of memory)")
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { output in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(output)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let bytes = writer.mem else {
            throw .encodingFailed(
                format: .webp, reason: "libwebp could not encode \(width)×\(height) (error \(picture.error_code.rawValue))")
        }
        return Data(bytes: bytes, count: writer.size)
    }
}
#endif
