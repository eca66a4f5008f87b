import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

extension PipelineTests {
    /// End to end with the platform's real codecs and processors.
    @Suite("Real images")
    struct RealImages {
        static let source = SampleImages.photo(width: 400, height: 300, seed: 7)

        static func png() throws -> Data { try TestImages.png(source) }

        static func pipeline(loader: PipelineCountingLoader, memoryCache: (any ImageCaching)? = nil) -> ImagePipeline {
            ImagePipeline(configuration: .init(dataLoader: loader, memoryCache: memoryCache))
        }

        @Test("a PNG loads at full size pixel for pixel, and at a target size")
        func pngThroughThePipeline() async throws {
            let png = try Self.png()
            let loader = PipelineCountingLoader(chunkCount: 7) { _ in png }
            let pipeline = Self.pipeline(loader: loader)
            let url = URL(string: "https://example.com/photo.png")!

            let full = try await pipeline.image(for: url)
            #expect(full.format == .png)
            expectSameBytes(full.bitmap.converted(to: .rgba8), Self.source.converted(to: .rgba8))

            let thumbnail = try await pipeline.image(for: ImageRequest(url: url, targetSize: CGSize(width: 50, height: 50), scale: 2))
            #expect(thumbnail.bitmap.size == PixelSize(width: 100, height: 75))
            #expect(thumbnail.sourceSize == PixelSize(width: 400, height: 300))
            #expect(loader.loadCount == 2)  // no caches configured
        }

        @Test("processors run on the decoded image, and the result is what the steps give by hand")
        func processorsOnRealImages() async throws {
            let png = try Self.png()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-pipeline-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("photo.png")
            try png.write(to: file)

            let memory = PipelineTestMemoryCache()
            let pipeline = Self.pipeline(loader: PipelineCountingLoader(), memoryCache: memory)
            let processors: [any ImageProcessing] = [.crop(PixelRect(x: 10, y: 10, width: 60, height: 40)), .grayscale]
            let request = ImageRequest(url: file, targetSize: CGSize(width: 200, height: 200), processors: processors)
            let image = try await pipeline.image(for: request)

            var expected = try ImageDecoderRegistry.standard.decode(png, options: DecodeOptions(target: request.decodeTarget))
            for processor in processors { expected = try processor.process(expected) }
            #expect(image.bitmap.size == PixelSize(width: 60, height: 40))
            expectSameBytes(image.bitmap, expected.bitmap)
            expectSameBytes(pipeline.cache.image(for: request)?.bitmap, expected.bitmap)
        }

        @Test("a truncated PNG fails with a decoding error, not a crash")
        func truncatedPNG() async throws {
            let png = try Self.png()
            let pipeline = Self.pipeline(loader: PipelineCountingLoader())
            let request = ImageRequest(source: .data(id: "half") { png.prefix(png.count / 2) })
            do throws(ImageError) {
                _ = try await pipeline.image(for: request)
                Issue.record("a truncated PNG decoded")
            } catch {
                switch error {
                case .truncated(format: .png, _, _), .decodingFailed(format: .png, _): break
                default: Issue.record("unexpected error \(error)")
                }
            }
        }
    }
}
