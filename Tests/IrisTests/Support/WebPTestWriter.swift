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
            let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options)
        else {
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

    /// One frame for ``muxed(width:height:frames:loopCount:)``: its rectangle (even offsets),
    /// straight-alpha pixels, duration and ops.
    struct Frame {
        var x = 0, y = 0, width: Int, height: Int
        var pixels: [RGBA]
        var duration = 100
        var dispose = WEBP_MUX_DISPOSE_NONE
        var blend = WEBP_MUX_BLEND
    }

    /// An animation whose frames are each encoded losslessly by libwebp and put together by
    /// its muxer with exactly the given placement, disposal and blending. The ANIM background
    /// colour is opaque red, which players must ignore.
    static func muxed(width: Int, height: Int, frames: [Frame], loopCount: Int = 0) throws -> Data {
        guard let mux = WebPMuxNew() else { throw ImageError.encodingFailed(format: .webp, reason: "mux") }
        defer { WebPMuxDelete(mux) }
        var params = WebPMuxAnimParams(bgcolor: 0xFFFF_0000, loop_count: Int32(loopCount))
        guard WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK,
            WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK
        else {
            throw ImageError.encodingFailed(format: .webp, reason: "animation parameters")
        }
        for frame in frames {
            let rgba = frame.pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] }
            var output: UnsafeMutablePointer<UInt8>?
            let size = WebPEncodeLosslessRGBA(rgba, Int32(frame.width), Int32(frame.height), Int32(frame.width * 4), &output)
            guard size > 0, let output else { throw ImageError.encodingFailed(format: .webp, reason: "frame") }
            defer { WebPFree(output) }
            var info = WebPMuxFrameInfo()
            info.bitstream = WebPData(bytes: output, size: size)
            info.x_offset = Int32(frame.x)
            info.y_offset = Int32(frame.y)
            info.duration = Int32(frame.duration)
            info.id = WEBP_CHUNK_ANMF
            info.dispose_method = frame.dispose
            info.blend_method = frame.blend
            guard WebPMuxPushFrame(mux, &info, 1) == WEBP_MUX_OK else {
                throw ImageError.encodingFailed(format: .webp, reason: "push frame")
            }
        }
        var assembled = WebPData()
        guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw ImageError.encodingFailed(format: .webp, reason: "assemble")
        }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: bytes, count: assembled.size)
    }

    /// Every frame as libwebp's own animation decoder composes it (premultiplied RGBA).
    static func libwebpFrames(_ data: Data) throws -> [[RGBA]] {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImageError.decodingFailed(format: .webp, reason: "options") }
        options.color_mode = MODE_rgbA
        return try data.withUnsafeBytes { bytes in
            var webPData = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let decoder = WebPAnimDecoderNew(&webPData, &options) else {
                throw ImageError.decodingFailed(format: .webp, reason: "WebPAnimDecoderNew")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            _ = WebPAnimDecoderGetInfo(decoder, &info)
            let count = Int(info.canvas_width * info.canvas_height)
            var frames: [[RGBA]] = []
            var pixels: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0, WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels {
                frames.append(
                    (0..<count).map { RGBA(r: pixels[$0 * 4], g: pixels[$0 * 4 + 1], b: pixels[$0 * 4 + 2], a: pixels[$0 * 4 + 3]) })
            }
            return frames
        }
    }
}
#endif
