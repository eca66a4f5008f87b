#if canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Animated GIFs written by giflib, played through ``Animation`` and compared pixel by pixel
/// with ``AnimationReference``.
@Suite("GIF animation")
struct GIFAnimationTests {
    static let palette = GIFCodecTests.palette
    let registry = ImageDecoderRegistry(decoders: [GIFDecoder()])

    /// A frame of random indices at a random place (sometimes reaching past the screen), with
    /// a transparent index half of the time.
    static func randomFrame(_ random: inout SplitMix, screen: PixelSize, disposal: Int) -> GIFTestWriter.Frame {
        let width = 1 + random.below(screen.width + 4), height = 1 + random.below(screen.height + 4)
        let left = random.below(screen.width), top = random.below(screen.height)
        let transparent: Int? = random.below(2) == 0 ? 7 : nil
        let indices = (0..<(width * height)).map { _ in random.below(4) == 0 ? UInt8(7) : UInt8(random.below(12)) }
        return GIFTestWriter.Frame(
            left: left, top: top, width: width, height: height, indices: indices,
            transparentIndex: transparent, interlaced: random.below(3) == 0,
            delay: random.below(20), disposal: disposal)
    }

    /// The reference frames for `frames` on the screen.
    static func reference(_ frames: [GIFTestWriter.Frame], screen: PixelSize) -> [[RGBA]] {
        let reference = frames.map { frame in
            AnimationReference.Frame(
                x: frame.left, y: frame.top, width: frame.width, height: frame.height,
                pixels: frame.indices.map { index in
                    if Int(index) == frame.transparentIndex { return RGBA(r: 0, g: 0, b: 0, a: 0) }
                    let c = palette[Int(index)]
                    return RGBA(r: c.0, g: c.1, b: c.2)
                },
                disposal: [0: .none, 1: .none, 2: .background, 3: .previous][frame.disposal] ?? .none,
                blend: .over)
        }
        return AnimationReference.compose(width: screen.width, height: screen.height, frames: reference)
    }

    @Test(
        "every pair of disposals (none, keep, background, previous), with offsets, transparency, clipping and interlacing, composes as the reference",
        arguments: [1, 2, 3] as [UInt64])
    func disposalPairs(seed: UInt64) async throws {
        let screen = PixelSize(width: 23, height: 17)
        // A de Bruijn sequence: every ordered pair of the four disposals follows once.
        let disposals = [0, 0, 1, 0, 2, 0, 3, 1, 1, 2, 1, 3, 2, 2, 3, 3, 0]
        var random = SplitMix(seed: seed)
        let frames = disposals.map { Self.randomFrame(&random, screen: screen, disposal: $0) }
        let data = try GIFTestWriter.gif(width: screen.width, height: screen.height, palette: Self.palette, frames: frames)
        try KeptInputs.keep(data, as: "gif-disposal-pairs-\(seed).gif")
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == frames.count)
        #expect(animation.frameSize == screen)
        #expect(image.sourceSize == screen)
        let expected = Self.reference(frames, screen: screen)
        #expect(AnimationReference.maxDifference(image.bitmap, expected[0]).difference == 0)
        let decoded = try await AnimationReference.frames(of: animation)
        for (index, frame) in decoded.enumerated() {
            let worst = AnimationReference.maxDifference(frame, expected[index])
            #expect(worst.difference == 0, "frame \(index) differs by \(worst.difference) at (\(worst.x), \(worst.y))")
        }
        // Backwards and out of order: the same frames.
        for index in [12, 3, 16, 0, 9, 8] {
            let frame = try await animation.frame(at: index)
            #expect(AnimationReference.maxDifference(frame, expected[index]).difference == 0, "frame \(index) out of order")
        }
    }

    @Test("frames are composed on the full screen, then shrunk to the target with the resampler")
    func targetSize() async throws {
        let screen = PixelSize(width: 60, height: 40)
        var random = SplitMix(seed: 9)
        let frames = (0..<6).map { Self.randomFrame(&random, screen: screen, disposal: $0 % 4) }
        let data = try GIFTestWriter.gif(width: screen.width, height: screen.height, palette: Self.palette, frames: frames)
        let target = DecodeTarget(width: 30, height: 30)
        let image = try registry.decode(data, options: DecodeOptions(target: target))
        let animation = try #require(image.animation)
        #expect(image.bitmap.size == PixelSize(width: 30, height: 20) && animation.frameSize == image.bitmap.size)
        let expected = Self.reference(frames, screen: screen)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            let canvas = AnimationReference.bitmap(width: screen.width, height: screen.height, expected[index])
            let shrunk = Resampler(kernel: .lanczos3).resize(canvas, to: frame.size)
            expectSameBytes(frame, shrunk, "frame \(index)")
        }
    }

    @Test("loop counts: none plays once, Netscape 0 forever, Netscape n plays n + 1 times")
    func loopCounts() throws {
        let frame = GIFTestWriter.Frame(width: 2, height: 2, indices: [1, 2, 3, 4])
        for (written, plays) in [(nil, 1), (0, 0), (3, 4)] as [(Int?, Int)] {
            let data = try GIFTestWriter.gif(width: 2, height: 2, palette: Self.palette, frames: [frame, frame], loopCount: written)
            #expect(try registry.decode(data).animation?.loopCount == plays, "loop count \(String(describing: written))")
        }
    }

    @Test("durations are the stored delays, zero and tiny ones included; display durations follow browsers")
    func durations() throws {
        let delays = [0, 1, 2, 7, 100, 65535]
        let frames = delays.map { GIFTestWriter.Frame(width: 1, height: 1, indices: [1], delay: $0) }
        let data = try GIFTestWriter.gif(width: 1, height: 1, palette: Self.palette, frames: frames)
        let animation = try #require(try registry.decode(data).animation)
        #expect((0..<6).map { animation.duration(at: $0) } == [0, 0.01, 0.02, 0.07, 1, 655.35])
        #expect((0..<6).map { animation.displayDuration(at: $0) } == [0.1, 0.1, 0.02, 0.07, 1, 655.35])
    }

    @Test("a truncated last frame is dropped and the complete frames play; a truncated first frame throws")
    func truncation() async throws {
        let screen = PixelSize(width: 20, height: 20)
        var random = SplitMix(seed: 4)
        let frames = (0..<4).map { _ in
            GIFTestWriter.Frame(width: 20, height: 20, indices: (0..<400).map { _ in UInt8(random.below(200)) })
        }
        let data = try GIFTestWriter.gif(width: screen.width, height: screen.height, palette: Self.palette, frames: frames)
        let cut = data.prefix(data.count - 60)
        let image = try registry.decode(Data(cut))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        let expected = Self.reference(Array(frames.prefix(3)), screen: screen)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            #expect(AnimationReference.maxDifference(frame, expected[index]).difference == 0)
        }
        let first = try GIFTestWriter.gif(width: screen.width, height: screen.height, palette: Self.palette, frames: [frames[0]])
        let error = thrownImageError { _ = try registry.decode(Data(first.prefix(first.count - 100))) }
        guard case .truncated(.gif, _, _) = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }

    @Test("a 100,000-frame GIF is rejected by the frame limit, quickly", .timeLimit(.minutes(10)))
    func frameLimit() throws {
        let frames = Array(repeating: GIFTestWriter.Frame(width: 1, height: 1, indices: [1]), count: 100_000)
        let data = try GIFTestWriter.gif(width: 1, height: 1, palette: Self.palette, frames: frames)
        let error = thrownImageError { _ = try registry.decode(data) }
        #expect(error == .overLimit(.frames(count: 100_000, limit: DecodingLimits.default.maxFrames)))
        // With a lower limit, the walk that builds the frame list stops at the limit.
        let limits = DecodingLimits(maxFrames: 50)
        #expect(
            thrownImageError { _ = try GIFFrameReader.source(data, limits: limits) }
                == .overLimit(.frames(count: 51, limit: 50)))
    }

    @Test("a full-screen opaque frame is a key frame; so is the frame after one cleared to background")
    func keyFrames() throws {
        let screen = PixelSize(width: 4, height: 4)
        let full = [UInt8](repeating: 2, count: 16)
        let frames: [GIFTestWriter.Frame] = [
            .init(width: 4, height: 4, indices: full),
            .init(left: 1, top: 1, width: 2, height: 2, indices: [1, 1, 1, 1]),
            .init(width: 4, height: 4, indices: full),  // 2: replaces all
            .init(width: 4, height: 4, indices: full, transparentIndex: 2),  // 3: see-through
            .init(width: 4, height: 4, indices: full, transparentIndex: 2, disposal: 2),  // 4: cleared after
            .init(left: 1, top: 1, width: 1, height: 1, indices: [1]),  // 5: on a blank canvas
            .init(width: 4, height: 4, indices: full, disposal: 3),  // 6: put back after
            .init(left: 1, top: 1, width: 1, height: 1, indices: [1]),
        ]
        let data = try GIFTestWriter.gif(width: screen.width, height: screen.height, palette: Self.palette, frames: frames)
        let source = try GIFFrameReader.source(data, limits: .default)
        #expect((0..<8).map { source.keyFrame(atOrBefore: $0) } == [0, 0, 2, 2, 2, 5, 5, 5])
    }
}
#endif
