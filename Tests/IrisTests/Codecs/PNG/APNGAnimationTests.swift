#if canImport(CPNG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// APNGs whose frames libpng compressed, played through ``Animation`` and compared pixel by
/// pixel with ``AnimationReference``.
@Suite("APNG animation")
struct APNGAnimationTests {
    let registry = ImageDecoderRegistry(decoders: [PNGDecoder()])

    /// Straight-alpha pixels: opaque, fully transparent and soft.
    static func randomPixels(_ random: inout SplitMix, count: Int) -> [RGBA] {
        (0..<count).map { _ in
            let alpha: UInt8 =
                switch random.below(4) {
                case 0: 0
                case 1: 255
                default: random.byte()
                }
            return RGBA(r: random.byte(), g: random.byte(), b: random.byte(), a: alpha)
        }
    }

    static func reference(_ frames: [APNGTestWriter.Frame], canvas: PixelSize) -> [[RGBA]] {
        AnimationReference.compose(
            width: canvas.width, height: canvas.height,
            frames: frames.map { frame in
                AnimationReference.Frame(
                    x: frame.x, y: frame.y, width: frame.width, height: frame.height, pixels: frame.pixels,
                    disposal: [.none, .background, .previous][Int(frame.dispose)],
                    blend: frame.blend == 0 ? .source : .over)
            })
    }

    /// Frames with every dispose op followed by every (dispose, blend) pair, soft alpha, and
    /// offsets; one frame reaches past the canvas.
    static func frames(canvas: PixelSize, seed: UInt64) -> [APNGTestWriter.Frame] {
        var random = SplitMix(seed: seed)
        let first = APNGTestWriter.Frame(
            width: canvas.width, height: canvas.height,
            pixels: randomPixels(&random, count: canvas.pixelCount), dispose: 0, blend: 0)
        var frames = [first]
        for dispose in [0, 1, 2] as [UInt8] {
            for blend in [0, 1] as [UInt8] {
                for previous in [0, 1, 2] as [UInt8] {
                    let width = 1 + random.below(canvas.width), height = 1 + random.below(canvas.height)
                    let x = random.below(canvas.width - width + 1), y = random.below(canvas.height - height + 1)
                    frames[frames.count - 1].dispose = previous
                    frames.append(
                        APNGTestWriter.Frame(
                            x: x, y: y, width: width, height: height,
                            pixels: randomPixels(&random, count: width * height),
                            dispose: dispose, blend: blend))
                }
            }
        }
        // Past the right and bottom edges: clipped.
        frames.append(
            APNGTestWriter.Frame(
                x: canvas.width - 3, y: canvas.height - 2, width: 6, height: 5,
                pixels: randomPixels(&random, count: 30), dispose: 0, blend: 1))
        return frames
    }

    @Test(
        "every dispose op and blend op pair, with soft alpha, offsets and clipping, composes as the reference",
        arguments: [1, 2] as [UInt64])
    func disposeAndBlend(seed: UInt64) async throws {
        let canvas = PixelSize(width: 13, height: 11)
        let frames = Self.frames(canvas: canvas, seed: seed)
        let data = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        try KeptInputs.keep(data, as: "apng-dispose-blend-\(seed).png")
        try KeptInputs.keep(data.dropFirst(8), as: "apng-dispose-blend-\(seed).unsigned")
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == frames.count)
        let expected = Self.reference(frames, canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            let worst = AnimationReference.maxDifference(frame, expected[index])
            #expect(worst.difference <= 2, "frame \(index) differs by \(worst.difference) at (\(worst.x), \(worst.y))")
        }
        for index in [17, 2, 19, 0, 5] {
            #expect(AnimationReference.maxDifference(try await animation.frame(at: index), expected[index]).difference <= 2)
        }
    }

    @Test("frames shrink to the target after composition")
    func targetSize() async throws {
        let canvas = PixelSize(width: 40, height: 24)
        let frames = Array(Self.frames(canvas: canvas, seed: 5).prefix(8))
        let data = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        let image = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 20, height: 20)))
        let animation = try #require(image.animation)
        #expect(animation.frameSize == PixelSize(width: 20, height: 12))
        let expected = Self.reference(frames, canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            let reference = Resampler().resize(AnimationReference.bitmap(width: 40, height: 24, expected[index]), to: frame.size)
            var pixels: [RGBA] = []
            for y in 0..<reference.height { for x in 0..<reference.width { pixels.append(reference.rgba(x: x, y: y)) } }
            #expect(AnimationReference.maxDifference(frame, pixels).difference <= 3, "frame \(index)")
        }
    }

    @Test("a default image outside the animation is not one of its frames")
    func defaultImageOutside() async throws {
        let red = [RGBA](repeating: RGBA(r: 255, g: 0, b: 0), count: 16)
        let green = APNGTestWriter.Frame(width: 4, height: 4, pixels: [RGBA](repeating: RGBA(r: 0, g: 255, b: 0), count: 16))
        let blue = APNGTestWriter.Frame(x: 1, y: 1, width: 2, height: 2, pixels: [RGBA](repeating: RGBA(r: 0, g: 0, b: 255), count: 4))
        let data = try APNGTestWriter.apng(width: 4, height: 4, frames: [green, blue], defaultImage: red)
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 2)
        #expect(image.bitmap.rgba(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 0))
        let second = try await animation.frame(at: 1)
        #expect(second.rgba(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 0) && second.rgba(x: 1, y: 1) == RGBA(r: 0, g: 0, b: 255))
    }

    @Test("frames wholly off the canvas cover nothing, whatever their dispose op (found by FuzzAnimation)")
    func framesOffTheCanvas() async throws {
        let canvas = PixelSize(width: 6, height: 5)
        var random = SplitMix(seed: 9)
        var frames = [APNGTestWriter.Frame(width: 6, height: 5, pixels: Self.randomPixels(&random, count: 30))]
        for (dispose, x, y) in [(2, 9, 0), (1, 0, 7), (2, 40, 40), (0, 2, 2)] as [(UInt8, Int, Int)] {
            frames.append(
                APNGTestWriter.Frame(
                    x: x, y: y, width: 3, height: 2, pixels: Self.randomPixels(&random, count: 6),
                    dispose: dispose, blend: 1))
        }
        let data = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        let animation = try #require(try registry.decode(data).animation)
        #expect(animation.frameCount == frames.count)
        let expected = Self.reference(frames, canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            #expect(AnimationReference.maxDifference(frame, expected[index]).difference <= 2, "frame \(index)")
        }
    }

    @Test("num_plays is the loop count; delays as stored, a zero denominator meaning hundredths")
    func timing() throws {
        let pixel = [RGBA(r: 1, g: 2, b: 3)]
        let delays: [(UInt16, UInt16)] = [(0, 100), (1, 1000), (7, 0), (3, 4)]
        let frames = delays.map { APNGTestWriter.Frame(width: 1, height: 1, pixels: pixel, delay: $0) }
        for plays in [0, 3] {
            let data = try APNGTestWriter.apng(width: 1, height: 1, frames: frames, plays: plays)
            let animation = try #require(try registry.decode(data).animation)
            #expect(animation.loopCount == plays)
            #expect((0..<4).map { animation.duration(at: $0) } == [0, 0.001, 0.07, 0.75])
        }
    }

    @Test("a truncated last frame is dropped and the complete frames play; a truncated first frame throws")
    func truncation() async throws {
        let canvas = PixelSize(width: 16, height: 16)
        var random = SplitMix(seed: 3)
        let frames = (0..<4).map { _ in
            APNGTestWriter.Frame(width: 16, height: 16, pixels: Self.randomPixels(&random, count: 256), blend: 1)
        }
        let data = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        let image = try registry.decode(Data(data.prefix(data.count - 100)))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        let expected = Self.reference(Array(frames.prefix(3)), canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            #expect(AnimationReference.maxDifference(frame, expected[index]).difference <= 2)
        }
        let firstIDAT = try #require(PNGBytes.chunks(data).first { $0.type == "IDAT" })
        let error = thrownImageError { _ = try registry.decode(Data(data.prefix(firstIDAT.dataRange.lowerBound + 50))) }
        guard case .truncated(.png, _, _) = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
    }

    @Test("an acTL declaring 100,000 frames is rejected by the frame limit")
    func frameLimit() throws {
        let frame = APNGTestWriter.Frame(width: 1, height: 1, pixels: [RGBA(r: 1, g: 2, b: 3)])
        let data = try APNGTestWriter.apng(width: 1, height: 1, frames: [frame, frame], declaredFrames: 100_000)
        #expect(
            thrownImageError { _ = try registry.decode(data) }
                == .overLimit(.frames(count: 100_000, limit: DecodingLimits.default.maxFrames)))
        #expect(
            thrownImageError { _ = try APNGFrameReader.source(data, limits: .default) }
                == .overLimit(.frames(count: 100_000, limit: DecodingLimits.default.maxFrames)))
    }
}
#endif
