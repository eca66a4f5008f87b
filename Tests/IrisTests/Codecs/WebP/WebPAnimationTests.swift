#if canImport(CWebP)
import CWebP
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Animated WebPs made by libwebp's encoder and muxer, played through ``Animation`` and
/// compared pixel by pixel with ``AnimationReference`` and with libwebp's own animation
/// decoder.
@Suite("WebP animation")
struct WebPAnimationTests {
    let registry = ImageDecoderRegistry(decoders: [WebPDecoder()])

    static func reference(_ frames: [WebPTestWriter.Frame], canvas: PixelSize) -> [[RGBA]] {
        AnimationReference.compose(
            width: canvas.width, height: canvas.height,
            frames: frames.map { frame in
                AnimationReference.Frame(
                    x: frame.x, y: frame.y, width: frame.width, height: frame.height, pixels: frame.pixels,
                    disposal: frame.dispose == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                    blend: frame.blend == WEBP_MUX_BLEND ? .over : .source)
            })
    }

    /// A full first frame, then every (previous disposal, disposal, blend) combination with soft
    /// alpha at even offsets; one frame is fully opaque.
    static func frames(canvas: PixelSize, seed: UInt64) -> [WebPTestWriter.Frame] {
        var random = SplitMix(seed: seed)
        var frames = [
            WebPTestWriter.Frame(
                width: canvas.width, height: canvas.height,
                pixels: APNGAnimationTests.randomPixels(&random, count: canvas.pixelCount))
        ]
        for dispose in [WEBP_MUX_DISPOSE_NONE, WEBP_MUX_DISPOSE_BACKGROUND] {
            for blend in [WEBP_MUX_BLEND, WEBP_MUX_NO_BLEND] {
                for previous in [WEBP_MUX_DISPOSE_NONE, WEBP_MUX_DISPOSE_BACKGROUND] {
                    let x = 2 * random.below(canvas.width / 2), y = 2 * random.below(canvas.height / 2)
                    let width = 1 + random.below(canvas.width - x), height = 1 + random.below(canvas.height - y)
                    frames[frames.count - 1].dispose = previous
                    frames.append(
                        WebPTestWriter.Frame(
                            x: x, y: y, width: width, height: height,
                            pixels: APNGAnimationTests.randomPixels(&random, count: width * height),
                            duration: 10 * random.below(10), dispose: dispose, blend: blend))
                }
            }
        }
        let opaque = (0..<(6 * 4)).map { _ in RGBA(r: random.byte(), g: random.byte(), b: random.byte()) }
        frames.append(WebPTestWriter.Frame(x: 2, y: 2, width: 6, height: 4, pixels: opaque, blend: WEBP_MUX_BLEND))
        return frames
    }

    @Test(
        "every disposal and blend pair composes as the reference and as libwebp's animation decoder; the background colour is ignored",
        arguments: [1, 2] as [UInt64])
    func disposeAndBlend(seed: UInt64) async throws {
        let canvas = PixelSize(width: 14, height: 10)
        let frames = Self.frames(canvas: canvas, seed: seed)
        let data = try WebPTestWriter.muxed(width: canvas.width, height: canvas.height, frames: frames)
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == frames.count)
        let expected = Self.reference(frames, canvas: canvas)
        let libwebp = try WebPTestWriter.libwebpFrames(data)
        #expect(libwebp.count == frames.count)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            let worst = AnimationReference.maxDifference(frame, expected[index])
            #expect(worst.difference <= 2, "frame \(index) differs from the reference by \(worst.difference) at (\(worst.x), \(worst.y))")
            let fromLibwebp = AnimationReference.maxDifference(frame, libwebp[index])
            #expect(fromLibwebp.difference <= 2, "frame \(index) differs from libwebp by \(fromLibwebp.difference)")
        }
        for index in [8, 1, 9, 0] {
            #expect(AnimationReference.maxDifference(try await animation.frame(at: index), expected[index]).difference <= 2)
        }
    }

    @Test("frames shrink to the target after composition")
    func targetSize() async throws {
        let canvas = PixelSize(width: 30, height: 20)
        let frames = Self.frames(canvas: canvas, seed: 8)
        let data = try WebPTestWriter.muxed(width: canvas.width, height: canvas.height, frames: frames)
        let image = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 15, height: 15)))
        let animation = try #require(image.animation)
        #expect(animation.frameSize == PixelSize(width: 15, height: 10) && image.bitmap.size == animation.frameSize)
        let expected = Self.reference(frames, canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            let reference = Resampler().resize(AnimationReference.bitmap(width: 30, height: 20, expected[index]), to: frame.size)
            var pixels: [RGBA] = []
            for y in 0..<reference.height { for x in 0..<reference.width { pixels.append(reference.rgba(x: x, y: y)) } }
            #expect(AnimationReference.maxDifference(frame, pixels).difference <= 3, "frame \(index)")
        }
    }

    @Test("the loop count and the durations are as stored, zero and tiny ones included")
    func timing() throws {
        let pixel = [RGBA(r: 9, g: 8, b: 7)]
        let frames = [0, 1, 20, 1500].map { WebPTestWriter.Frame(width: 1, height: 1, pixels: pixel, duration: $0) }
        for loops in [0, 2] {
            let data = try WebPTestWriter.muxed(width: 1, height: 1, frames: frames, loopCount: loops)
            let animation = try #require(try registry.decode(data).animation)
            #expect(animation.loopCount == loops)
            #expect((0..<4).map { animation.duration(at: $0) } == [0, 0.001, 0.02, 1.5])
        }
    }

    @Test("a truncated last frame is dropped and the complete frames play; a truncated first frame throws")
    func truncation() async throws {
        let canvas = PixelSize(width: 16, height: 16)
        var random = SplitMix(seed: 11)
        let frames = (0..<4).map { _ in
            WebPTestWriter.Frame(width: 16, height: 16, pixels: APNGAnimationTests.randomPixels(&random, count: 256))
        }
        let data = try WebPTestWriter.muxed(width: canvas.width, height: canvas.height, frames: frames)
        let image = try registry.decode(Data(data.prefix(data.count - 100)))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        let expected = Self.reference(Array(frames.prefix(3)), canvas: canvas)
        // Three soft-alpha frames blended over each other in 8-bit premultiplied steps: up to one
        // level of rounding per step.
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            #expect(AnimationReference.maxDifference(frame, expected[index]).difference <= 3)
        }
        let error = thrownImageError { _ = try registry.decode(Data(data.prefix(200))) }
        guard case .truncated(.webp, _, _) = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }

    @Test("the frame limit is checked from the container")
    func frameLimit() throws {
        let frame = WebPTestWriter.Frame(width: 1, height: 1, pixels: [RGBA(r: 1, g: 2, b: 3)])
        let data = try WebPTestWriter.muxed(width: 1, height: 1, frames: [frame, frame, frame])
        #expect(
            thrownImageError { _ = try registry.decode(data, options: DecodeOptions(limits: DecodingLimits(maxFrames: 2))) }
                == .overLimit(.frames(count: 3, limit: 2)))
    }
}
#endif
