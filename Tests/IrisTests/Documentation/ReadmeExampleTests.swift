import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// The README's pipeline example, compiled and run against a `.data` source so it cannot rot.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the pipeline example compiles and gives a circle cut from the 128×96 decode (64 pt at scale 2)")
    func pipelineExample() async throws {
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let photo = try PNGEncoder().encode(SampleImages.photo(width: 400, height: 300), options: EncodeOptions())
        let request = ImageRequest(
            source: .data(id: "readme") { photo }, targetSize: CGSize(width: 64, height: 64),
            scale: 2, processors: [.circle])
        #expect(pipeline.cache.image(for: request) == nil)
        let task = pipeline.task(for: request)
        let image = try await task.image
        // 400×300 fits 128×128 as 128×96; the circle is cut from the centred 96×96 square.
        #expect(image.bitmap.size == PixelSize(width: 96, height: 96))
        #expect(image.bitmap.rgba(x: 0, y: 0).a == 0)  // outside the circle
        expectSameBytes(pipeline.cache.image(for: request)?.bitmap, image.bitmap)
    }
}
