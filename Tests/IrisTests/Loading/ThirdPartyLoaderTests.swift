import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// A loader as an app might write one: one method over `URLSession`, passing on the response
/// and each piece of the body, and nothing else: no ranges, no byte limit, no status or content
/// checks. It notes the byte limit it was given and the requests it sent.
private final class MinimalLoader: DataLoading {
    private let log = LockedState<(byteLimits: [Int?], requests: [URLRequest])>(([], []))

    /// The byte limits the pipeline passed, one per load.
    var byteLimits: [Int?] { log.withLock { $0.byteLimits } }
    /// The requests the pipeline asked for, one per load.
    var requests: [URLRequest] { log.withLock { $0.requests } }

    func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        log.withLock {
            $0.byteLimits.append(byteLimit)
            $0.requests.append(request)
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: DataLoadingEvent.self)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        // Only a hang detector, as every test loader's: with URLSession's default 60 s, a load
        // the test server stalls on purpose could time out on its own when the test that cancels
        // it runs late on a busy machine, and end before the cancel it waits for.
        configuration.timeoutIntervalForRequest = httpHangTimeout
        let session = URLSession(configuration: configuration, delegate: MinimalLoaderEvents(continuation), delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in task.cancel() }
        task.resume()
        session.finishTasksAndInvalidate()
        return stream
    }
}

/// The session delegate of one ``MinimalLoader`` load: each callback becomes an event.
private final class MinimalLoaderEvents: NSObject, URLSessionDataDelegate, Sendable {
    private let continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        continuation.yield(.response(DataLoadingResponse(response)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.chunk(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish(throwing: error)
    }
}

/// A third-party loader implementing only ``DataLoading/loadData(for:byteLimit:)`` gets what
/// ``URLSessionDataLoader`` gets: the pipeline resumes its downloads and bounds its bodies.
@Suite("Third-party loader")
struct ThirdPartyLoaderTests {
    static let png: Data = {
        (try? PNGEncoder().encode(
            SampleImages.photo(width: 320, height: 200, seed: 5, format: .rgba8, alpha: true),
            options: EncodeOptions())) ?? Data()
    }()

    /// Loads `/photo.png` with `loader` and cancels it after the first `cut` bytes (the server
    /// stalls there); returns the bytes the store kept.
    private static func cancelledDownload(
        _ server: TestHTTPServer, pipeline: ImagePipeline, store: ResumableDataStore,
        cut: Int
    ) async -> Int {
        server.serve("/photo.png", .stalling(body: png, after: cut, contentType: "image/png", etag: "\"v1\"", ranges: .bytes))
        let cancelledAt = await PipelineResumeTests.cancel(pipeline.task(for: ImageRequest(url: server.url("/photo.png"))), after: cut)
        _ = await pipelineEventually { store.byteCount > 0 }
        #expect(store.byteCount >= cancelledAt && store.byteCount < png.count, "kept \(store.byteCount) bytes")
        return store.byteCount
    }

    @Test("a cancelled download of a one-method loader resumes: the pipeline sends Range and If-Range, the kept bytes come first")
    func resumesACancelledDownload() async throws {
        try await withTestServer { server in
            let loader = MinimalLoader()
            let store = ResumableDataStore()
            let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, memoryCache: nil, resumableData: store))
            let kept = await Self.cancelledDownload(server, pipeline: pipeline, store: store, cut: Self.png.count / 3)

            let rest = TestHTTPRoute.inPieces(
                body: Self.png, pieceSize: 8192, contentType: "image/png", etag: "\"v1\"",
                ranges: .bytes)
            server.serve("/photo.png", rest)
            let resumed = pipeline.task(for: ImageRequest(url: server.url("/photo.png"), options: .init(keepsData: true)))
            let firstBytes = await resumed.firstProgressBytes()
            server.releasePieces("/photo.png", through: rest.pieceCount)
            let image = try await resumed.image
            expectSameBytes(image.data, Self.png)
            #expect(firstBytes == kept)  // the kept bytes, before any new one
            #expect(server.requests("/photo.png").map(\.rangeStart) == [nil, kept])
            #expect(server.requests("/photo.png").map(\.ifRange) == [nil, "\"v1\""])
            #expect(loader.requests.map { $0.value(forHTTPHeaderField: "Range") } == [nil, "bytes=\(kept)-"])
            #expect(store.byteCount == 0)
        }
    }

    @Test(
        "when the server does not continue the kept bytes (416, another range), the one-method loader's load starts over",
        arguments: [TestHTTPRoute.RangeSupport.unsatisfiable, .wrongContentRange])
    func startsOver(ranges: TestHTTPRoute.RangeSupport) async throws {
        try await withTestServer { server in
            let loader = MinimalLoader()
            let store = ResumableDataStore()
            let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, memoryCache: nil, resumableData: store))
            let kept = await Self.cancelledDownload(server, pipeline: pipeline, store: store, cut: Self.png.count / 2)

            server.serve("/photo.png", TestHTTPRoute(body: Self.png, contentType: "image/png", etag: "\"v1\"", ranges: ranges))
            let image = try await pipeline.image(for: ImageRequest(url: server.url("/photo.png"), options: .init(keepsData: true)))
            expectSameBytes(image.data, Self.png)
            #expect(server.requests("/photo.png").map(\.rangeStart) == [nil, kept, nil])
            #expect(loader.requests.count == 3)
        }
    }

    @Test("a resumed 206 of a one-method loader cut short fails as a lost connection of the whole body, never as a shorter one")
    func truncatedResume() async throws {
        try await withTestServer { server in
            let url = server.url("/photo.png")
            server.serve(
                "/photo.png",
                TestHTTPRoute(
                    body: Self.png, contentType: "image/png", dropAfterBytes: 10_000, etag: "\"v1\"",
                    ranges: .bytes))
            let store = ResumableDataStore()
            store.keep(
                ResumableData(data: Self.png.prefix(30_000), validator: "\"v1\"", totalLength: Self.png.count),
                for: url.absoluteString)
            let pipeline = ImagePipeline(configuration: .init(dataLoader: MinimalLoader(), memoryCache: nil, resumableData: store))
            do throws(ImageError) {
                _ = try await pipeline.image(for: ImageRequest(url: url))
                Issue.record("a cut 206 loaded")
            } catch {
                guard case .network(let reason, url, _) = error else {
                    Issue.record("a cut 206 gave \(error)")
                    return
                }
                #expect(reason == "connection lost after 40,000 of \(Self.png.count.grouped) bytes")
            }
            #expect(server.requests("/photo.png").map(\.rangeStart) == [30_000])
        }
    }

    @Test(
        "a one-method loader that ignores the byte limit: the pipeline fails the load with .overLimit and cancels it",
        .timeLimit(.minutes(10)))
    func byteLimitHoldsWhenTheLoaderIgnoresIt() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let limit = 256 * 1024
        try await withTestServer { server in
            let loader = MinimalLoader()
            let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, memoryCache: nil, maxDataBytes: limit))

            // A body without end: the pipeline stops taking it at the limit and cancels the transfer.
            server.serve("/endless.jpg", .endless(body: jpeg.prefix(4096), contentType: "image/jpeg"))
            let task = pipeline.task(for: ImageRequest(url: server.url("/endless.jpg")))
            var lastProgress = 0
            for await progress in task.progress { lastProgress = progress.completed }
            #expect(lastProgress <= limit)
            do throws(ImageError) {
                _ = try await task.image
                Issue.record("an endless body loaded")
            } catch {
                guard case .overLimit(.encodedBytes(let bytes, limit)) = error, bytes > limit else {
                    Issue.record("the endless body ended with \(error)")
                    return
                }
            }
            #expect(await pipelineEventually { server.cancelledRequestCount("/endless.jpg") == 1 })

            // A Content-Length over the limit fails before the body, with the announced length.
            let announced = 50 * 1024 * 1024
            server.serve("/huge.jpg", .endless(body: jpeg, contentType: "image/jpeg", contentLength: .announced(announced)))
            do throws(ImageError) {
                _ = try await pipeline.image(for: ImageRequest(url: server.url("/huge.jpg")))
                Issue.record("a body announced over the limit loaded")
            } catch {
                #expect(error == .overLimit(.encodedBytes(bytes: announced, limit: limit)))
            }
            #expect(await pipelineEventually { server.cancelledRequestCount("/huge.jpg") == 1 })
            #expect(loader.byteLimits == [limit, limit])  // passed on, and ignored
        }
    }
}
