#if canImport(CGIF) && canImport(CPNG)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// Processors on animated images: through the pipeline every frame is processed (the animation
/// is kept), a processor whose output size varies fails on the frame where it does, with a typed
/// error, and the memory cache counts the processed animation.
@Suite("Animated processing")
struct AnimatedProcessingTests {
    /// A 30-frame 24×24 GIF.
    static let gif = (try? AnimationBufferTests.movingGIF(frames: 30)) ?? Data()

    static func request(_ processors: [any ImageProcessing], id: String) -> ImageRequest {
        ImageRequest(source: .data(id: id) { Self.gif }, targetSize: CGSize(width: 12, height: 12), processors: processors)
    }

    @Test(
        "every frame of a processed animation is the processor applied to the unprocessed frame",
        arguments: [
            [.grayscale] as [any ImageProcessing],
            [.crop(PixelRect(x: 2, y: 1, width: 8, height: 9)), .gaussianBlur(radius: 1)],
            [.resize(width: 6, height: 6), .roundedCorners(radius: 2)],
        ])
    func everyFrame(processors: [any ImageProcessing]) async throws {
        let pipeline = ImagePipeline(configuration: .init())
        let plain = try await pipeline.image(for: Self.request([], id: "plain"))
        let processed = try await pipeline.image(for: Self.request(processors, id: "processed"))
        let original = try #require(plain.animation)
        let animation = try #require(processed.animation, "the processors dropped the animation")
        #expect(animation.frameCount == original.frameCount && animation.loopCount == original.loopCount)
        #expect(animation.frameSize == processed.bitmap.size)
        for index in [0, 1, 2, 17, 29, 4] {
            var frame = plain
            frame.bitmap = try await original.frame(at: index)
            frame.animation = nil
            let expected = try LoadedImage.run(processors, on: frame, checkingCancellation: false).get().bitmap
            try await expectSameBytes(animation.frame(at: index), expected, "frame \(index)")
            #expect(animation.duration(at: index) == original.duration(at: index))
        }
        try await expectSameBytes(animation.frame(at: 0), processed.bitmap)
    }

    /// 5 or 6: the parity of the sum of a frame's bytes (deterministic, but not the same for
    /// every frame).
    static func side(_ bitmap: Bitmap) -> Int { 5 + bitmap.pixels.reduce(0) { $0 + Int($1) } % 2 }

    @Test("a processor whose output size differs between frames fails on that frame with a typed error")
    func varyingSize() async throws {
        let varying = ImageProcessors.Custom(identifier: "test.varying") { image in
            let side = Self.side(image.bitmap)
            return try ImageProcessors.Crop(rect: PixelRect(x: 0, y: 0, width: side, height: side)).process(image)
        }
        let pipeline = ImagePipeline(configuration: .init())
        let plain = try #require(try await pipeline.image(for: Self.request([], id: "plain")).animation)
        var sides: [Int] = []
        for index in 0..<plain.frameCount { sides.append(Self.side(try await plain.frame(at: index))) }
        let first = try #require(sides.indices.first { sides[$0] != sides[0] }, "every frame has side \(sides[0])")

        let image = try await pipeline.image(for: Self.request([varying], id: "varying"))
        let animation = try #require(image.animation)
        #expect(animation.frameSize == PixelSize(width: sides[0], height: sides[0]))
        for index in 0..<first { #expect(try await animation.frame(at: index).size == animation.frameSize) }
        do throws(ImageError) {
            _ = try await animation.frame(at: first)
            Issue.record("frame \(first) should fail")
        } catch {
            guard case let .processingFailed(processor, reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(processor == "test.varying")
            let side = sides[first]
            #expect(reason.contains("frame \(first) came out \(side)×\(side), frame 0 \(sides[0])×\(sides[0])"), "\(reason)")
        }
    }

    @Test("the memory cache counts a processed animation at its bound, and serves it animated")
    func cached() async throws {
        let cache = MemoryCache(costLimit: 64 << 20)
        let pipeline = ImagePipeline { $0.memoryCache = cache }
        let request = Self.request([.grayscale], id: "cached")
        let image = try await pipeline.image(for: request)
        let animation = try #require(image.animation)
        #expect(cache.totalCost == image.cost)
        #expect(image.cost == image.bitmap.cost + animation.costLimit)
        let hit = try #require(pipeline.cache.image(for: request))
        #expect(hit.animation?.frameCount == 30)
        for index in 0..<30 { _ = try await animation.frame(at: index) }
        #expect(image.bitmap.cost + animation.cost <= cache.totalCost)
    }
}
#endif
