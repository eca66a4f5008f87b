import Foundation
import IrisSamples
import IrisTestSupport
import Testing

@testable import Iris

/// Bytes a caller already holds, rendered with the header it read once
/// (``ImagePipeline/readHeader(of:)``, ``ImagePipeline/image(decoding:target:appliesOrientation:processors:)``).
@Suite("Bytes in hand")
struct PipelineHeldDataTests {
    static let source = SampleImages.photo(width: 400, height: 300, seed: 11)

    static func png() throws -> Data {
        let encoder = try #require(ImageEncoders.encoder(for: .png))
        return try encoder.encode(source, options: EncodeOptions())
    }

    @Test("bytes in hand decode at the target with the processors, as a request for the same bytes does")
    func heldBytesRenderAsARequestDoes() async throws {
        let png = try Self.png()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil))
        let held = try pipeline.readHeader(of: png)
        #expect(held.header.format == .png && held.header.storedSize == PixelSize(width: 400, height: 300))

        let processors: [any ImageProcessing] = [.grayscale]
        let image = try await pipeline.image(
            decoding: held, target: DecodeTarget(width: 100, height: 100), appliesOrientation: true, processors: processors)
        let request = ImageRequest(source: .data(id: "photo") { png }, targetSize: CGSize(width: 100, height: 100), processors: processors)
        let expected = try await pipeline.image(for: request)
        #expect(image.bitmap.size == PixelSize(width: 100, height: 75))
        #expect(image.sourceSize == PixelSize(width: 400, height: 300))
        expectSameBytes(image.bitmap, expected.bitmap)
    }

    @Test("the configuration's limits hold for bytes in hand")
    func limitsHold() async throws {
        let png = try Self.png()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil, limits: DecodingLimits(maxPixels: 10_000)))
        let held = try pipeline.readHeader(of: png)
        do {
            _ = try await pipeline.image(decoding: held, target: nil, appliesOrientation: true, processors: [])
            Issue.record("a 400×300 source decoded past a limit of 10,000 pixels")
        } catch {
            guard case .overLimit = error else {
                Issue.record("expected an over-limit error, got \(error)")
                return
            }
        }
    }
}
