import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// A download cancelled part way and loaded again asks only for the rest, through the whole
/// pipeline (URLSessionDataLoader, a loopback server with validators and ranges).
@Suite("Pipeline resume")
struct PipelineResumeTests {
    static let png: Data = {
        (try? PNGEncoder().encode(
            SampleImages.photo(width: 360, height: 240, seed: 21, format: .rgba8, alpha: true),
            options: EncodeOptions())) ?? Data()
    }()

    /// `body` with a validator and ranges, in 8 KiB pieces the test releases
    /// (``TestHTTPServer/releasePieces(_:through:)``).
    static func inPieces(_ body: Data, etag: String = "\"v1\"") -> TestHTTPRoute {
        .inPieces(body: body, pieceSize: 8192, contentType: "image/png", etag: etag, ranges: .bytes)
    }

    /// `body` at once, with a validator and ranges.
    static func whole(_ body: Data, etag: String = "\"v1\"") -> TestHTTPRoute {
        TestHTTPRoute(body: body, contentType: "image/png", etag: etag, ranges: .bytes)
    }

    /// The first `bytes` of `body` at once (announcing all of it, with the same validator), then
    /// nothing: a download that is surely under way, and surely not finished, when it is cancelled,
    /// however slowly the machine runs.
    static func stalled(_ body: Data, at bytes: Int, etag: String = "\"v1\"") -> TestHTTPRoute {
        .stalling(body: body, after: bytes, contentType: "image/png", etag: etag, ranges: .bytes)
    }

    static func pipeline(store: ResumableDataStore = ResumableDataStore(), dataCache: (any DataCaching)? = nil) -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: dataCache,
                resumableData: store))
    }

    /// Starts `task`, cancels it once at least `bytes` arrived; returns the bytes reported.
    static func cancel(_ task: ImageTask, after bytes: Int) async -> Int {
        var seen = 0
        for await progress in task.progress where progress.completed >= bytes {
            seen = progress.completed
            break
        }
        task.cancel()
        return seen
    }

    @Test(
        "cancelled at a quarter, half, nine tenths: the next load sends Range from there and decodes the same bytes",
        arguments: [0.25, 0.5, 0.9])
    func resumeAfterCancel(fraction: Double) async throws {
        try await withTestServer { server in
            let cut = Int(Double(Self.png.count) * fraction)
            server.serve("/photo.png", Self.stalled(Self.png, at: cut))
            let store = ResumableDataStore()
            let pipeline = Self.pipeline(store: store)
            let request = ImageRequest(url: server.url("/photo.png"), options: .init(keepsData: true))
            let cancelledAt = await Self.cancel(pipeline.task(for: request), after: cut)
            #expect(await pipelineEventually { store.byteCount > 0 })
            let kept = store.byteCount
            #expect(kept >= cancelledAt && kept < Self.png.count)
            let rest = Self.inPieces(Self.png)
            server.serve("/photo.png", rest)

            // The rest comes in pieces, the second only once the test has seen the first progress.
            let resumed = pipeline.task(for: request)
            let firstBytes = await resumed.firstProgressBytes()
            server.releasePieces("/photo.png", through: rest.pieceCount)
            let image = try await resumed.image
            expectSameBytes(image.data, Self.png)
            expectSameBytes(image.bitmap, (try ImageDecoderRegistry.standard.decode(Self.png)).bitmap)
            #expect(firstBytes == kept)  // progress continues from N
            #expect(server.requests("/photo.png").map(\.rangeStart) == [nil, kept])
            #expect(store.byteCount == 0)
        }
    }

    @Test("a coalesced download goes on while one subscriber stays; once both cancel it is kept and resumed")
    func coalesced() async throws {
        try await withTestServer { server in
            // A quarter at once, the second quarter when the test releases it, then a stall.
            let quarter = Self.png.count / 4
            server.serve(
                "/photo.png",
                TestHTTPRoute(
                    body: Self.png.prefix(2 * quarter), contentType: "image/png", chunkSize: quarter,
                    piecesOnRelease: true, etag: "\"v1\"", ranges: .bytes, bodyEnd: .stall,
                    contentLength: .announced(Self.png.count)))
            let store = ResumableDataStore()
            let pipeline = Self.pipeline(store: store)
            let request = ImageRequest(url: server.url("/photo.png"))
            let first = pipeline.task(for: request)
            let second = pipeline.task(for: request)
            _ = await Self.cancel(first, after: quarter)
            // The second quarter, released after the first task left, reaches the second task
            // through the same request: the download went on.
            server.releasePieces("/photo.png", through: 1)
            #expect(await progress(of: second, reaches: 2 * quarter))
            #expect(server.requests("/photo.png").count == 1)
            #expect(server.cancelledRequestCount("/photo.png") == 0)
            #expect(store.byteCount == 0)  // nothing kept while the second wants it
            second.cancel()
            #expect(await pipelineEventually { store.byteCount >= 2 * quarter })
            #expect(await pipelineEventually { server.cancelledRequestCount("/photo.png") == 1 })
            server.serve("/photo.png", Self.whole(Self.png))
            _ = try await pipeline.task(for: request).image
            #expect(server.requests("/photo.png").count == 2)
            #expect((server.requests("/photo.png").last?.rangeStart ?? 0) >= 2 * quarter)
        }
    }

    @Test("the disk cache holds only complete data; the budget of kept partial data holds")
    func diskCacheAndBudget() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestServer { server in
            server.serve("/a.png", Self.stalled(Self.png, at: Self.png.count / 2))
            server.serve("/b.png", Self.stalled(Self.png, at: Self.png.count / 2, etag: "\"b\""))
            let cache = try DataCache(directory: directory)
            let store = ResumableDataStore(byteLimit: Self.png.count * 3 / 4)
            let pipeline = Self.pipeline(store: store, dataCache: cache)
            _ = await Self.cancel(pipeline.task(for: ImageRequest(url: server.url("/a.png"))), after: Self.png.count / 2)
            #expect(await pipelineEventually { store.keys == [server.url("/a.png").absoluteString] })
            await cache.waitForPendingWrites()
            #expect(cache.data(for: server.url("/a.png").absoluteString) == nil)

            _ = await Self.cancel(pipeline.task(for: ImageRequest(url: server.url("/b.png"))), after: Self.png.count / 2)
            #expect(await pipelineEventually { store.keys == [server.url("/b.png").absoluteString] })  // a went
            #expect(store.byteCount <= store.byteLimit)

            server.serve("/b.png", Self.whole(Self.png, etag: "\"b\""))
            _ = try await pipeline.task(for: ImageRequest(url: server.url("/b.png"))).image
            await cache.waitForPendingWrites()
            expectSameBytes(cache.data(for: server.url("/b.png").absoluteString), Self.png)
        }
    }
}
