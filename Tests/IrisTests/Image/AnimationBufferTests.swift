#if canImport(CGIF) && canImport(CPNG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// The lazy ``Animation``: bounded memory whatever the frame count, the buffer budget,
/// concurrent and backward access, broken frames, cancellation and cost.
@Suite("Animation buffer")
struct AnimationBufferTests {
    let registry = ImageDecoderRegistry.standard

    /// A GIF of `count` 24×24 frames: small sub-rectangles moving over a full first frame, kept
    /// or put back (so frame 0 is the only key frame).
    static func movingGIF(frames count: Int) throws -> Data {
        var random = SplitMix(seed: 77)
        var frames = [GIFTestWriter.Frame(width: 24, height: 24, indices: (0..<576).map { _ in UInt8(random.below(100)) })]
        for index in 1..<count {
            frames.append(
                GIFTestWriter.Frame(
                    left: (index * 7) % 16, top: (index * 3) % 16, width: 8, height: 8,
                    indices: (0..<64).map { _ in UInt8(random.below(100)) },
                    delay: 2, disposal: index % 3 == 0 ? 3 : 1))
        }
        return try GIFTestWriter.gif(width: 24, height: 24, palette: GIFCodecTests.palette, frames: frames)
    }

    /// The most bytes `animation` held besides its encoded data while every frame was played in
    /// order.
    static func peakHeld(_ animation: Animation, encoded: Int) async throws -> Int {
        var peak = 0
        for index in 0..<animation.frameCount {
            _ = try await animation.frame(at: index)
            peak = max(peak, animation.cost - encoded)
        }
        #expect(await pipelineEventually { !animation.isReadingAhead }, "the read-ahead never settled")
        return max(peak, animation.cost - encoded)
    }

    @Test("with a window of frames, a 2,000-frame GIF plays in the same memory as a 20-frame one: a few frames and one canvas")
    func memoryIndependentOfFrameCount() async throws {
        let window = Animation.defaultBufferFrames * 12 * 12 * 4  // what an animation over the kept-frames budget gets
        let options = DecodeOptions(target: DecodeTarget(width: 12, height: 12), animationBufferBytes: window)
        var peaks: [Int] = []
        for count in [20, 2_000] {
            let data = try Self.movingGIF(frames: count)
            let animation = try #require(try registry.decode(data, options: options).animation)
            #expect(animation.frameCount == count)
            peaks.append(try await Self.peakHeld(animation, encoded: data.count))
        }
        let frameBytes = 12 * 12 * 4
        let bound = Animation.defaultBufferFrames * frameBytes + 24 * 24 * 4 + 8 * 8 * 4
        #expect(peaks[0] <= bound && peaks[1] <= bound, "peaks \(peaks), bound \(bound)")
        #expect(peaks[1] <= peaks[0] + frameBytes, "peaks \(peaks)")
    }

    /// `animation`'s lazy source, wrapped so that every frame its decoders compose is counted.
    static func counted(_ animation: Animation) throws -> (Animation, CountingFrameSource) {
        guard case .lazy(let buffer) = animation.storage else { throw ImageError.cancelled }
        let counting = CountingFrameSource(buffer.source)
        return (Animation(source: counting, frameSize: animation.frameSize, kernel: buffer.kernel), counting)
    }

    /// Plays every frame of `animation` in order `loops` times; the checksums of the frames.
    static func play(_ animation: Animation, loops: Int) async throws -> [[UInt32]] {
        var sums: [[UInt32]] = []
        for _ in 0..<loops {
            var loop: [UInt32] = []
            for index in 0..<animation.frameCount {
                let frame = try await animation.frame(at: index)
                loop.append(frame.withUnsafeBytes { CRC32.checksum($0) })
            }
            sums.append(loop)
        }
        return sums
    }

    /// A small animation of `format` made by its real encoder, with disposal and blending
    /// between frames: GIF (giflib), APNG (libpng), animated WebP (libwebp's muxer).
    static func smallAnimation(_ format: ImageFormat) throws -> Data {
        switch format {
        case .gif:
            return try movingGIF(frames: 30)
        case .png:
            let canvas = PixelSize(width: 13, height: 11)
            return try APNGTestWriter.apng(
                width: canvas.width, height: canvas.height, frames: APNGAnimationTests.frames(canvas: canvas, seed: 3))
        #if canImport(CWebP)
        case .webp:
            let canvas = PixelSize(width: 14, height: 10)
            return try WebPTestWriter.muxed(
                width: canvas.width, height: canvas.height, frames: WebPAnimationTests.frames(canvas: canvas, seed: 3))
        #endif
        default:
            throw ImageError.unsupportedFormat(format)
        }
    }

    /// The formats ``smallAnimation(_:)`` makes here.
    static var smallAnimationFormats: [ImageFormat] {
        #if canImport(CWebP)
        [.gif, .png, .webp]
        #else
        [.gif, .png]
        #endif
    }

    @Test(
        "a small GIF, APNG or animated WebP keeps every composed frame: each frame is composed once over three loops, later loops are byte-identical and equal to frames composed afresh, and the cost is the frames kept",
        arguments: smallAnimationFormats)
    func smallAnimationKeepsItsFrames(format: ImageFormat) async throws {
        let data = try Self.smallAnimation(format)
        let options = DecodeOptions(target: DecodeTarget(width: 8, height: 8))  // downsampled: frames smaller than the canvas
        let decoded = try #require(try registry.decode(data, options: options).animation)
        #expect(decoded.frameCount > 2)
        let (animation, counting) = try Self.counted(decoded)
        let loops = try await Self.play(animation, loops: 3)
        #expect(await pipelineEventually { !animation.isReadingAhead })
        #expect(counting.composed == animation.frameCount, "\(counting.composed) frames composed for 3 loops of \(animation.frameCount)")
        #expect(loops[1] == loops[0] && loops[2] == loops[0], "a later loop shows other pixels")
        // The kept frames are the composed ones: byte for byte what a one-frame window, which
        // composes every frame afresh, shows.
        let oneFrame = DecodeOptions(target: options.target, animationBufferBytes: 1)
        let afresh = try #require(try registry.decode(data, options: oneFrame).animation)
        #expect(try await Self.play(afresh, loops: 1)[0] == loops[0], "a kept frame differs from the frame composed afresh")
        // Held: every frame and the encoded data, no canvas; within what the memory cache was charged.
        let frame = try await animation.frame(at: 0)
        #expect(frame.size.width <= 8 && frame.size.height <= 8)
        #expect(animation.cost == animation.frameCount * frame.cost + data.count)
        #expect(animation.cost <= animation.costLimit)
    }

    @Test(
        "an animation whose frames exceed the kept-frames budget keeps the window: each loop composes its frames again, and it holds at most the window and a canvas"
    )
    func largeAnimationKeepsAWindow() async throws {
        let data = try Self.movingGIF(frames: 2_000)  // 2,000 × 24 × 24 × 4 bytes: over 4 MiB
        let decoded = try #require(try registry.decode(data, options: DecodeOptions()).animation)
        #expect(decoded.frameCount * decoded.frameSize.pixelCount * 4 > Animation.keptFramesBudget)
        let (animation, counting) = try Self.counted(decoded)
        // What the memory cache is charged: the window of frames (rows display-aligned), a
        // decoder's working state, the data.
        let alignment = Bitmap.displayRowAlignment
        let frameBytes = (24 * 4 + alignment - 1) / alignment * alignment * 24
        #expect(animation.costLimit == Animation.defaultBufferFrames * frameBytes + counting.maximumWorkingBytes + data.count)
        var peaks: [Int] = []
        for _ in 0..<2 { peaks.append(try await Self.peakHeld(animation, encoded: data.count)) }
        #expect(counting.composed >= 2 * 2_000, "\(counting.composed) frames composed for 2 loops of 2,000")
        #expect(peaks.allSatisfy { $0 <= animation.costLimit - data.count }, "peaks \(peaks), limit \(animation.costLimit)")
    }

    @Test("the buffer budget bounds the frames kept; the first frame is there from the start")
    func budget() async throws {
        let data = try Self.movingGIF(frames: 30)
        let frameBytes = 12 * 12 * 4
        let options = DecodeOptions(target: DecodeTarget(width: 12, height: 12), animationBufferBytes: 6 * frameBytes)
        let image = try registry.decode(data, options: options)
        let animation = try #require(image.animation)
        #expect(animation.cost == frameBytes + data.count)  // frame 0, no canvas yet
        // What a cache counts is the bound, from the start: six frames, a canvas and a saved
        // region, the data; frame 0 (the bitmap) on top.
        // (A frame is charged with its rows padded to 64 bytes, as frames for Core Animation are.)
        #expect(animation.costLimit == 6 * 64 * 12 + 2 * 24 * 24 * 4 + data.count)
        #expect(image.cost == image.bitmap.cost + animation.costLimit)
        let peak = try await Self.peakHeld(animation, encoded: data.count)
        #expect(peak <= 6 * frameBytes + 24 * 24 * 4 + 8 * 8 * 4)
        #expect(peak >= 2 * frameBytes)  // it does read ahead
    }

    @Test("the memory cache counts an animation at its bound, which playing never passes and which does not change")
    func cacheCost() async throws {
        let data = try Self.movingGIF(frames: 40)
        let image = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 12, height: 12)))
        let animation = try #require(image.animation)
        let cache = MemoryCache(costLimit: 10 << 20)
        let key = ImageCacheKey(dataKey: "https://example.com/moving.gif")
        cache.store(image, for: key)
        let stored = cache.totalCost
        #expect(stored == image.cost)
        var worst = 0
        for index in [0, 1, 2, 3, 39, 20, 5, 6] {
            _ = try await animation.frame(at: index)
            worst = max(worst, image.bitmap.cost + animation.cost)
            #expect(cache.totalCost == stored)
        }
        #expect(worst > image.bitmap.cost + data.count)  // frames and a canvas were held
        #expect(worst <= stored)
    }

    @Test("an animation of frames in memory whose frame 0 is the bitmap counts it once")
    func inMemoryCost() {
        let frames = (0..<3).map { _ in Bitmap(width: 4, height: 4, format: .rgba8) }
        let animation = Animation(frames: frames, durations: [0.1, 0.1, 0.1])
        let image = LoadedImage(bitmap: frames[0], animation: animation, format: .gif, sourceSize: PixelSize(width: 4, height: 4))
        #expect(image.cost == 3 * 64)
        var other = frames[0]
        other.setRGBA(RGBA(r: 1, g: 2, b: 3), x: 0, y: 0)  // its own storage now
        #expect(LoadedImage(bitmap: other, animation: animation, format: .gif, sourceSize: PixelSize(width: 4, height: 4)).cost == 4 * 64)
    }

    @Test("frames asked for concurrently and in any order are the frames played in order")
    func concurrentAccess() async throws {
        let data = try Self.movingGIF(frames: 40)
        let options = DecodeOptions(target: DecodeTarget(width: 20, height: 20))
        let reference = try await AnimationReference.frames(of: try #require(try registry.decode(data, options: options).animation))
        let animation = try #require(try registry.decode(data, options: options).animation)
        var random = SplitMix(seed: 5)
        let requests = (0..<120).map { _ in random.below(40) }
        try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
            for index in requests {
                group.addTask { (index, try await animation.frame(at: index)) }
            }
            for try await (index, frame) in group {
                expectSameBytes(frame, reference[index], "frame \(index)")
            }
        }
    }

    @Test("a frame that fails to decode throws, and so do the frames that build on it; the others play")
    func brokenFrame() async throws {
        var random = SplitMix(seed: 21)
        let frames = (0..<5).map { index in
            APNGTestWriter.Frame(
                width: 8, height: 8, pixels: APNGAnimationTests.randomPixels(&random, count: 64),
                blend: index == 4 ? 0 : 1)  // frame 4 replaces all: a key frame
        }
        var data = try APNGTestWriter.apng(width: 8, height: 8, frames: frames)
        // Spoil the zlib header of frame 2's data (fdAT of sequence 3, after its sequence number).
        let chunk = PNGBytes.chunks(data).filter { $0.type == "fdAT" }[1]
        data.replaceSubrange((chunk.dataRange.lowerBound + 4)..<(chunk.dataRange.lowerBound + 6), with: [0x00, 0x00])
        data = PNGBytes.fixingCRC(data, chunk: chunk)
        let animation = try #require(try registry.decode(data).animation)
        #expect(animation.frameCount == 5)
        _ = try await animation.frame(at: 1)
        for index in [2, 3] {
            await #expect(throws: ImageError.self) { _ = try await animation.frame(at: index) }
        }
        _ = try await animation.frame(at: 4)
        _ = try await animation.frame(at: 0)
        await #expect(throws: ImageError.self) { _ = try await animation.frame(at: 3) }
    }

    @Test("a cancelled caller waiting for a frame gets cancelled")
    func cancellation() async throws {
        let data = try Self.movingGIF(frames: 200)
        let animation = try #require(try registry.decode(data).animation)
        let task = Task { () -> ImageError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await animation.frame(at: 150)
                return nil
            } catch {
                return error as? ImageError
            }
        }
        let error = await task.value
        #expect(error == ImageError.cancelled)
        // The animation still works afterwards.
        #expect(try await animation.frame(at: 150).size == animation.frameSize)
    }

    @Test("an in-memory animation keeps its frames, durations and loop count")
    func inMemory() async throws {
        let frames = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 255, b: 0)].map { colour -> Bitmap in
            var bitmap = Bitmap(width: 2, height: 1, format: .rgba8)
            bitmap.setRGBA(colour, x: 0, y: 0)
            return bitmap
        }
        let animation = Animation(frames: frames, durations: [0.5], loopCount: 3)
        #expect(animation.frameCount == 2 && animation.loopCount == 3 && animation.frameSize == PixelSize(width: 2, height: 1))
        #expect(animation.duration(at: 0) == 0.5 && animation.duration(at: 1) == 0 && animation.displayDuration(at: 1) == 0.1)
        try await expectSameBytes(animation.frame(at: 1), frames[1])
        #expect(animation.cost == 16)
    }

    @Test("still images and single-frame GIFs have no animation; a one-frame APNG is an animation of one frame (its fcTL has a duration)")
    func stills() throws {
        let one = try GIFTestWriter.gif(
            width: 2, height: 2, palette: GIFCodecTests.palette,
            frames: [.init(width: 2, height: 2, indices: [1, 2, 3, 4])])
        #expect(try registry.decode(one).animation == nil)
        let frame = APNGTestWriter.Frame(width: 1, height: 1, pixels: [RGBA(r: 1, g: 2, b: 3)])
        #expect(try registry.decode(try APNGTestWriter.apng(width: 1, height: 1, frames: [frame])).animation?.frameCount == 1)
    }
}
/// A frame source that counts the frames its decoders compose (the real source does the work).
final class CountingFrameSource: AnimationFrameSource, Sendable {
    let base: any AnimationFrameSource
    private let count = LockedState(0)

    init(_ base: any AnimationFrameSource) { self.base = base }

    /// Frames composed so far, by every decoder made.
    var composed: Int { count.withLock { $0 } }

    var canvas: PixelSize { base.canvas }
    var frameCount: Int { base.frameCount }
    var loopCount: Int { base.loopCount }
    func duration(at index: Int) -> Double { base.duration(at: index) }
    func keyFrame(atOrBefore index: Int) -> Int { base.keyFrame(atOrBefore: index) }
    var encodedByteCount: Int { base.encodedByteCount }
    var maximumWorkingBytes: Int { base.maximumWorkingBytes }
    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        CountingFrameDecoder(try base.makeDecoder(frameSize: frameSize, kernel: kernel)) { [count] in count.withLock { $0 += 1 } }
    }
}

/// A frame decoder that reports each frame it composes.
private final class CountingFrameDecoder: AnimationFrameDecoder {
    let base: any AnimationFrameDecoder
    let onFrame: () -> Void

    init(_ base: any AnimationFrameDecoder, onFrame: @escaping () -> Void) {
        self.base = base
        self.onFrame = onFrame
    }

    var nextIndex: Int { base.nextIndex }
    var workingBytes: Int { base.workingBytes }
    func nextFrame() throws(ImageError) -> Bitmap {
        onFrame()
        return try base.nextFrame()
    }
    func rewind(toKeyFrameAtOrBefore index: Int) { base.rewind(toKeyFrameAtOrBefore: index) }
}
#endif
