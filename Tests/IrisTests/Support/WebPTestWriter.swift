#if canImport(CWebP)
import CWebP
import Foundation
import Iris

/// Writes animated WebPs with libwebp's animation encoder, for the decoder tests.
enum WebPTestWriter {
    /// An animation of `frames` (all the same size, straight RGBA: pass opaque or rgbx8
    /// bitmaps), each shown for 100 ms, losslessly encoded.
    static func animation(_ frames: [Bitmap]) throws -> Data {
        guard let first = frames.first else { throw ImageError.encodingFailed(format: .webp, reason: "no frames") }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0,
              let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw ImageError.encodingFailed(format: .webp, reason: "cannot make an animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw ImageError.encodingFailed(format: .webp, reason: "config") }
        config.lossless = 1
        var timestamp: Int32 = 0
        for frame in frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw ImageError.encodingFailed(format: .webp, reason: "picture") }
            picture.use_argb = 1
            picture.width = Int32(frame.width)
            picture.height = Int32(frame.height)
            let rgba = frame.converted(to: .rgbx8)
            let imported = rgba.withUnsafeBytes { bytes in
                WebPPictureImportRGBA(&picture, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(rgba.bytesPerRow))
            }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw ImageError.encodingFailed(format: .webp, reason: "cannot add frame")
            }
            timestamp += 100
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw ImageError.encodingFailed(format: .webp, reason: "cannot end the animation")
        }
        var assembled = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &assembled) != 0, let bytes = assembled.bytes else {
            throw ImageError.encodingFailed(format: .webp, reason: "cannot assemble")
        }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: bytes, count: assembled.size)
    }
}
#endif
