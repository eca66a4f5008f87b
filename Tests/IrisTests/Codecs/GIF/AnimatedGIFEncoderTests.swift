#if canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// ``AnimatedGIFEncoder`` read back with Iris's own GIF decoder: frames, delays, loop counts,
/// a transparent pixel over an opaque frame, a lazy animation written again.
@Suite("Animated GIF encoder")
struct AnimatedGIFEncoderTests {
    /// Three 40×30 frames of 100 colours each (exact in GIF); the third has a transparent left
    /// half, drawn after an opaque frame.
    static func frames() -> [Bitmap] {
        let palette = GIFEncoderTests.colours(100)
        var frames = (1...3).map { GIFEncoderTests.scattered(palette, width: 40, height: 30, seed: UInt64($0), format: .rgba8) }
        for y in 0..<30 { for x in 0..<20 { frames[2].setRGBA(RGBA(r: 0, g: 0, b: 0, a: 0), x: x, y: y) } }
        return frames
    }

    static let durations = [0.1, 0.25, 0.05]

    /// `data` decoded by Iris: its animation.
    static func animation(_ data: Data) throws -> Animation {
        try #require(try ImageDecoderRegistry.standard.decode(data).animation)
    }

    @Test("frames, delays and loop count survive a round trip exactly; a transparent pixel stays transparent over an opaque frame")
    func roundTrip() async throws {
        let frames = Self.frames()
        let data = try await AnimatedGIFEncoder().encode(
            Animation(frames: frames, durations: Self.durations, loopCount: 3),
            options: EncodeOptions())
        #expect(data.prefix(6) == Data("GIF89a".utf8))
        let animation = try Self.animation(data)
        #expect(animation.frameCount == 3 && animation.loopCount == 3 && animation.frameSize == PixelSize(width: 40, height: 30))
        #expect((0..<3).map { animation.duration(at: $0) } == Self.durations)
        for index in 0..<3 {
            let frame = try await animation.frame(at: index)
            expectSameBytes(frame.converted(to: .rgba8), frames[index], "frame \(index)")
        }
        let last = try await animation.frame(at: 2)
        #expect(last.rgba(x: 3, y: 3).a == 0 && last.rgba(x: 30, y: 3).a == 255)
    }

    @Test(
        "loop counts: forever, once (no Netscape extension), twice, 70,000 (the most GIF stores)",
        arguments: [(0, 0), (1, 1), (2, 2), (70_000, 65_536)])
    func loopCounts(_ plays: Int, _ expected: Int) async throws {
        let frames = Array(Self.frames().prefix(2))
        let data = try await AnimatedGIFEncoder().encode(
            Animation(frames: frames, durations: [0.1, 0.1], loopCount: plays),
            options: EncodeOptions())
        #expect(try Self.animation(data).loopCount == expected)
        #expect((data.range(of: Data("NETSCAPE2.0".utf8)) != nil) == (plays != 1))
    }

    @Test("delays are stored as browsers play them: 0 and 5 ms as 100 ms, 12 ms as the shortest, 20 ms")
    func shortDelays() async throws {
        let frames = Array(repeating: Self.frames()[0], count: 3)
        let data = try await AnimatedGIFEncoder().encode(Animation(frames: frames, durations: [0, 0.005, 0.012]), options: EncodeOptions())
        let animation = try Self.animation(data)
        #expect((0..<3).map { animation.duration(at: $0) } == [0.1, 0.1, 0.02])
    }

    @Test("a decoded (lazy) GIF animation written again keeps every frame exactly")
    func lazyAnimationAgain() async throws {
        let first = try await AnimatedGIFEncoder().encode(
            Animation(frames: Self.frames(), durations: Self.durations, loopCount: 0),
            options: EncodeOptions())
        let decoded = try Self.animation(first)
        let again = try Self.animation(try await AnimatedGIFEncoder().encode(decoded, options: EncodeOptions()))
        #expect(again.frameCount == 3 && again.loopCount == 0)
        for index in 0..<3 {
            let (a, b) = (try await decoded.frame(at: index), try await again.frame(at: index))
            expectSameBytes(b.converted(to: .rgba8), a.converted(to: .rgba8), "frame \(index)")
        }
    }

    @Test("an animated photo is reduced frame by frame, each with its own palette, close to its frames")
    func photoFrames() async throws {
        let frames = (1...3).map { SampleImages.photo(width: 96, height: 64, seed: UInt64($0)) }
        let data = try await AnimatedGIFEncoder().encode(Animation(frames: frames, durations: [0.1, 0.1, 0.1]), options: EncodeOptions())
        let animation = try Self.animation(data)
        for index in 0..<3 {
            let difference = GIFEncoderTests.meanDifference(try await animation.frame(at: index), frames[index])
            #expect(difference < 8, "frame \(index): mean absolute difference \(difference)")
        }
    }

    @Test("frames of another size and empty animations are refused with an encoding error")
    func refusals() async throws {
        let mixed = Animation(
            frames: [Bitmap(width: 4, height: 4, format: .rgba8), Bitmap(width: 5, height: 4, format: .rgba8)],
            durations: [0.1, 0.1])
        await #expect(throws: ImageError.encodingFailed(format: .gif, reason: "frame is 5×4, the animation 4×4")) {
            try await AnimatedGIFEncoder().encode(mixed, options: EncodeOptions())
        }
        await #expect(throws: ImageError.encodingFailed(format: .gif, reason: "the animation has no frames")) {
            try await AnimatedGIFEncoder().encode(Animation(frames: [], durations: []), options: EncodeOptions())
        }
    }
}
#endif
