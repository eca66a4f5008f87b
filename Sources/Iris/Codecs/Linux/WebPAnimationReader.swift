#if canImport(CWebP)
import CWebP
import Foundation

/// Reads animated WebP with libwebp's demuxer and animation decoder.
enum WebPAnimationReader {
    /// What an animation's container says.
    struct Info {
        var canvas: PixelSize
        var frameCount: Int
        var loopCount: Int
    }

    /// Canvas size, frame and loop count, from the container alone.
    static func info(of data: Data) throws(ImageError) -> Info {
        try withDecoder(data) { decoder throws(ImageError) in
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw .decodingFailed(format: .webp, reason: "cannot read the animation header")
            }
            return Info(canvas: PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height)),
                        frameCount: Int(info.frame_count), loopCount: Int(info.loop_count))
        }
    }

    /// The first frame, composited on the canvas, at `job.outputSize`.
    static func firstFrame(of data: Data, job: DecodeJob) throws(ImageError) -> Bitmap {
        try withDecoder(data) { decoder throws(ImageError) in
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw .decodingFailed(format: .webp, reason: "cannot read the animation header")
            }
            let canvas = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                throw WebPDecoder.error(for: VP8_STATUS_BITSTREAM_ERROR, data: data)
            }
            let sink = makeRowSink(source: canvas, output: job.outputSize, format: .rgba8, kernel: job.kernel)
            let stride = canvas.width * 4
            for y in 0..<canvas.height {
                sink.append(row: UnsafeRawBufferPointer(start: frame + y * stride, count: stride))
            }
            return sink.finish()
        }
    }

    /// Runs `body` with an animation decoder (premultiplied RGBA output) over `data`.
    private static func withDecoder<T>(_ data: Data, _ body: (OpaquePointer) throws(ImageError) -> T) throws(ImageError) -> T {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw .decodingFailed(format: .webp, reason: "libwebp version mismatch")
        }
        options.color_mode = MODE_rgbA
        options.use_threads = 0
        let result: Result<T, ImageError> = data.withUnsafeBytes { bytes in
            var webPData = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let decoder = WebPAnimDecoderNew(&webPData, &options) else {
                return .failure(WebPDecoder.error(for: VP8_STATUS_BITSTREAM_ERROR, data: data))
            }
            defer { WebPAnimDecoderDelete(decoder) }
            do throws(ImageError) {
                return .success(try body(decoder))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
#endif
