#if canImport(CWebP)
import CWebP
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// ``AnimatedWebPEncoder`` read back with libwebp's own animation decoder.
@Suite("Animated WebP encoder")
struct AnimatedWebPEncoderTests {
    /// Frames, timestamps (ms, end of each frame) and loop count as libwebp decodes them.
    static func decode(_ data: Data) throws -> (frames: [Bitmap], ends: [Int], loopCount: Int) {
        try data.withUnsafeBytes { raw in
            var webp = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImageError.decodingFailed(format: .webp, reason: "options") }
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
                throw ImageError.decodingFailed(format: .webp, reason: "not an animation")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            WebPAnimDecoderGetInfo(decoder, &info)
            var frames: [Bitmap] = []
            var ends: [Int] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else { break }
                let count = Int(info.canvas_width * info.canvas_height * 4)
                frames.append(
                    Bitmap(
                        width: Int(info.canvas_width), height: Int(info.canvas_height), format: .rgba8,
                        pixels: Array(UnsafeBufferPointer(start: buffer, count: count)))!)
                ends.append(Int(timestamp))
            }
            return (frames, ends, Int(info.loop_count))
        }
    }

    @Test("frames, durations and loop count survive a lossless round trip, from RGB and BGR layouts")
    func roundTrip() async throws {
        for format in [PixelFormat.rgbx8, .bgrx8] {
            let frames = (0..<3).map { SampleImages.photo(width: 48, height: 32, seed: UInt64($0 + 1), format: format) }
            let animation = Animation(frames: frames, durations: [0.1, 0.25, 0.005], loopCount: 3)
            let data = try await AnimatedWebPEncoder().encode(animation, options: EncodeOptions(lossless: true))
            let decoded = try Self.decode(data)
            #expect(decoded.loopCount == 3)
            #expect(decoded.ends == [100, 350, 450])  // 5 ms plays (and is stored) as 100 ms
            #expect(decoded.frames.count == 3)
            for (index, frame) in decoded.frames.enumerated() {
                expectSameBytes(frame.converted(to: .rgbx8), frames[index].converted(to: .rgbx8), "frame \(index) (\(format))")
            }
        }
    }

    @Test("frames of another size and empty animations are refused with an encoding error")
    func refusals() async throws {
        let mixed = Animation(
            frames: [Bitmap(width: 4, height: 4, format: .rgba8), Bitmap(width: 5, height: 4, format: .rgba8)],
            durations: [0.1, 0.1])
        await #expect(throws: ImageError.encodingFailed(format: .webp, reason: "frame is 5×4, the animation 4×4")) {
            try await AnimatedWebPEncoder().encode(mixed, options: EncodeOptions())
        }
        await #expect(throws: ImageError.encodingFailed(format: .webp, reason: "the animation has no frames")) {
            try await AnimatedWebPEncoder().encode(Animation(frames: [], durations: []), options: EncodeOptions())
        }
    }
}
#endif
