#if IRIS_TESTABLE
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Iris
import IrisSamples

// Helpers for tests over a real HTTP server on loopback.

/// The loader timeout of tests that do not test timeouts: only a hang detector, never what a
/// test checks (tests of timeouts run the loader on a ``VirtualClock``).
package let httpHangTimeout: TimeInterval = 600

/// Runs `body` with a started ``TestHTTPServer`` and shuts the server down afterwards.
/// Runs on the caller's executor (`nonisolated(nonsending)`), so main-actor tests can use it.
package nonisolated(nonsending) func withTestServer<Result>(_ body: (TestHTTPServer) async throws -> Result) async throws -> Result {
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

/// Waits until `task` has reported at least `bytes` through its progress stream; false when the
/// task ended first.
package func progress(of task: ImageTask, reaches bytes: Int) async -> Bool {
    for await progress in task.progress where progress.completed >= bytes { return true }
    return false
}

/// The photo the HTTP tests serve, and its encodings (``TestImages``).
package enum HTTPTestImages {
    /// The photo the encoded images show.
    package static let source = SampleImages.photo(width: 240, height: 160, seed: 11)

    /// `source` as PNG.
    package static func png() throws -> Data { try TestImages.png(source) }

    /// `source` as baseline JPEG.
    package static func jpeg() throws -> Data { try TestImages.jpeg(source, quality: 90) }
}

/// Everything one load streamed, and how it ended.
package struct CollectedLoad: Sendable {
    /// The `.response` event's values, if one came.
    package var status: Int?
    package var expectedLength: Int?
    package var mimeType: String?
    package var responseCount = 0
    /// The body pieces in order.
    package var chunks: [Data] = []
    /// The error the stream finished with.
    package var error: (any Error)?

    /// All body pieces joined.
    package var body: Data { chunks.reduce(into: Data()) { $0.append($1) } }
    /// The error as an ``ImageError``, if it is one.
    package var imageError: ImageError? { error as? ImageError }

    /// The body bytes received so far.
    package var receivedCount: Int { chunks.reduce(0) { $0 + $1.count } }

    /// Consumes `stream` to its end, calling `onEvent` with what arrived so far after each event
    /// (to release the server's next piece, or move a test clock, at a known point of the load).
    package static func collect(
        _ stream: some AsyncSequence<DataLoadingEvent, any Error>,
        onEvent: (CollectedLoad) -> Void = { _ in }
    ) async -> CollectedLoad {
        var load = CollectedLoad()
        do {
            for try await event in stream {
                switch event {
                case .response(let response):
                    load.responseCount += 1
                    load.status = response.statusCode
                    load.expectedLength = response.expectedLength
                    load.mimeType = response.mimeType
                case .chunk(let data):
                    load.chunks.append(data)
                }
                onEvent(load)
            }
        } catch {
            load.error = error
        }
        return load
    }
}

/// Wraps a real decoder and counts its decodes.
package final class HTTPCountingDecoder: ImageDecoding {
    private let decoder: any ImageDecoding
    private let counter: PipelineCounter

    package init(_ decoder: any ImageDecoding, counter: PipelineCounter) {
        self.decoder = decoder
        self.counter = counter
    }

    package var formats: Set<ImageFormat> { decoder.formats }
    package func format(of data: Data) -> ImageFormat? { decoder.format(of: data) }
    package func readHeader(_ data: Data) throws(ImageError) -> ImageHeader { try decoder.readHeader(data) }
    package func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        try decoder.animationSource(for: data, limits: limits)
    }
    package func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        counter.increment()
        return try decoder.decode(data, context: context)
    }

    /// The platform's decoders, all counting into `counter`.
    package static func standard(counting counter: PipelineCounter) -> ImageDecoderRegistry {
        ImageDecoderRegistry(decoders: ImageDecoderRegistry.standard.decoders.map { HTTPCountingDecoder($0, counter: counter) })
    }
}
#endif
