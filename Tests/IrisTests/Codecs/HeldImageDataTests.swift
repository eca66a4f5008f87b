import Foundation
import IrisSamples
import IrisTestSupport
import Testing

@testable import Iris

/// Bytes a caller already holds, rendered with the header it read once
/// (``ImageDecoderRegistry/readHeader(of:)``,
/// ``ImageDecoderRegistry/image(decoding:target:appliesOrientation:limits:processors:)``).
@Suite("Bytes in hand")
struct HeldImageDataTests {
    static let source = SampleImages.photo(width: 400, height: 300, seed: 11)

    static func png() throws -> Data { try TestImages.png(source) }

    @Test("bytes in hand decode at the target with the processors, as a request for the same bytes does")
    func heldBytesRenderAsARequestDoes() async throws {
        let png = try Self.png()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil))
        let held = try pipeline.configuration.decoders.readHeader(of: png)
        #expect(held.header.format == .png && held.header.storedSize == PixelSize(width: 400, height: 300))

        let processors: [any ImageProcessing] = [.grayscale]
        let image = try await pipeline.configuration.decoders.image(
            decoding: held, target: DecodeTarget(width: 100, height: 100), appliesOrientation: true, limits: pipeline.configuration.limits,
            processors: processors)
        let request = ImageRequest(source: .data(id: "photo") { png }, targetSize: CGSize(width: 100, height: 100), processors: processors)
        let expected = try await pipeline.image(for: request)
        #expect(image.bitmap.size == PixelSize(width: 100, height: 75))
        #expect(image.sourceSize == PixelSize(width: 400, height: 300))
        expectSameBytes(image.bitmap, expected.bitmap)
    }

    @Test("the header read before rendering is the render's: the decoder reads it once, where a request reads it again")
    func headerIsReadOnce() async throws {
        let png = try Self.png()
        let base = try #require(ImageDecoderRegistry.standard.decoders.first { $0.formats.contains(.png) })
        let counting = HeaderCountingDecoder(base: base)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil, decoders: ImageDecoderRegistry(decoders: [counting])))

        let held = try pipeline.configuration.decoders.readHeader(of: png)
        let image = try await pipeline.configuration.decoders.image(
            decoding: held, target: DecodeTarget(width: 100, height: 100), appliesOrientation: true, limits: pipeline.configuration.limits,
            processors: [])
        #expect(image.bitmap.size == PixelSize(width: 100, height: 75))
        #expect(counting.reads == 1)

        // The seam counts: a request for the same bytes reads the header in its decode.
        let request = ImageRequest(source: .data(id: "photo") { png }, targetSize: CGSize(width: 100, height: 100))
        _ = try await pipeline.image(for: request)
        #expect(counting.reads == 2)
    }

    @Test("the limits given hold for bytes in hand")
    func limitsHold() async throws {
        let png = try Self.png()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil, limits: DecodingLimits(maxPixels: 10_000)))
        let held = try pipeline.configuration.decoders.readHeader(of: png)
        do {
            _ = try await pipeline.configuration.decoders.image(
                decoding: held, target: nil, appliesOrientation: true, limits: pipeline.configuration.limits, processors: [])
            Issue.record("a 400×300 source decoded past a limit of 10,000 pixels")
        } catch {
            guard case .overLimit = error else {
                Issue.record("expected an over-limit error, got \(error)")
                return
            }
        }
    }
}

/// A decoder that counts the headers it reads (and the orientations it is asked, which a header
/// read includes), decoding through `base`.
private final class HeaderCountingDecoder: ImageDecoding {
    let base: any ImageDecoding
    private let count = LockedState(0)

    init(base: any ImageDecoding) { self.base = base }

    /// Headers read so far.
    var reads: Int { count.withLock { $0 } }

    var formats: Set<ImageFormat> { base.formats }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        count.withLock { $0 += 1 }
        return try base.readHeader(data)
    }

    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        base.orientation(in: data, releasingInput: releasingInput)
    }

    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        try base.decode(data, context: context)
    }

    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        try base.animationSource(for: data, limits: limits)
    }
}
