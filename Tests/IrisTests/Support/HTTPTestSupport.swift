import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Iris
import IrisSamples
import IrisTestServer

// Helpers for tests over a real HTTP server on loopback.

/// Runs `body` with a started ``TestHTTPServer`` and shuts the server down afterwards.
/// Runs on the caller's executor (`nonisolated(nonsending)`), so main-actor tests can use it.
nonisolated(nonsending) func withTestServer<Result>(_ body: (TestHTTPServer) async throws -> Result) async throws -> Result {
    let server = TestHTTPServer()
    try await server.start()
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// Real encoded images made with Iris's own encoders.
enum HTTPTestImages {
    /// The photo the encoded images show.
    static let source = SampleImages.photo(width: 240, height: 160, seed: 11)

    /// `source` as PNG.
    static func png() throws -> Data {
        guard let encoder = ImageEncoders.encoder(for: .png) else { throw ImageError.unsupportedFormat(.png) }
        return try encoder.encode(source, options: EncodeOptions())
    }

    /// `source` as baseline JPEG.
    static func jpeg() throws -> Data {
        guard let encoder = ImageEncoders.encoder(for: .jpeg) else { throw ImageError.unsupportedFormat(.jpeg) }
        return try encoder.encode(source, options: EncodeOptions(quality: 90))
    }
}

/// Everything one load streamed, and how it ended.
struct CollectedLoad: Sendable {
    /// The `.response` event's values, if one came.
    var status: Int?
    var expectedLength: Int?
    var mimeType: String?
    var responseCount = 0
    /// The body pieces in order.
    var chunks: [Data] = []
    /// The error the stream finished with.
    var error: (any Error)?

    /// All body pieces joined.
    var body: Data { chunks.reduce(into: Data()) { $0.append($1) } }
    /// The error as an ``ImageError``, if it is one.
    var imageError: ImageError? { error as? ImageError }

    /// Consumes `stream` to its end.
    static func collect(_ stream: AsyncThrowingStream<DataLoadingEvent, any Error>) async -> CollectedLoad {
        var load = CollectedLoad()
        do {
            for try await event in stream {
                switch event {
                case let .response(status, expectedLength, mimeType):
                    load.responseCount += 1
                    load.status = status
                    load.expectedLength = expectedLength
                    load.mimeType = mimeType
                case .chunk(let data):
                    load.chunks.append(data)
                }
            }
        } catch {
            load.error = error
        }
        return load
    }
}

/// Wraps a real decoder and counts its decodes.
final class HTTPCountingDecoder: ImageDecoding {
    private let decoder: any ImageDecoding
    private let counter: PipelineCounter

    init(_ decoder: any ImageDecoding, counter: PipelineCounter) {
        self.decoder = decoder
        self.counter = counter
    }

    var formats: Set<ImageFormat> { decoder.formats }
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader { try decoder.readHeader(data) }
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        counter.increment()
        return try decoder.decode(data, context: context)
    }

    /// The platform's decoders, all counting into `counter`.
    static func standard(counting counter: PipelineCounter) -> ImageDecoderRegistry {
        ImageDecoderRegistry(decoders: ImageDecoderRegistry.standard.decoders.map { HTTPCountingDecoder($0, counter: counter) })
    }
}
