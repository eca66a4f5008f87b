import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IrisSamples
import IrisTestServer
import Testing
@testable import Iris

/// A pipeline over a real ``URLSessionDataLoader`` and a real ``DataCache`` in a fresh
/// directory, for the network failure modes; `cleanUp()` removes the directory.
private struct NetworkRig {
    let pipeline: ImagePipeline
    let cache: DataCache
    let directory: URL

    init(maxDataBytes: Int = ImagePipeline.Configuration.defaultMaxDataBytes, timeout: TimeInterval = 30,
         memoryCache: MemoryCache? = nil) throws {
        directory = failureModeDirectory("network-cache")
        cache = try DataCache(directory: directory)
        pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader(timeout: timeout), dataCache: cache,
                                                      memoryCache: memoryCache, maxDataBytes: maxDataBytes))
    }

    /// Nothing reached the disk cache: no entry, no file, no bytes kept for resuming.
    func expectNothingCached(_ request: ImageRequest, sourceLocation: SourceLocation = #_sourceLocation) async {
        await cache.waitForPendingWrites()
        #expect(cache.data(for: pipeline.dataKey(for: request)) == nil, sourceLocation: sourceLocation)
        #expect(cache.count == 0, sourceLocation: sourceLocation)
        #expect(failureModeFileNames(in: directory).isEmpty, "files: \(failureModeFileNames(in: directory))",
                sourceLocation: sourceLocation)
        #expect(pipeline.configuration.resumableData?.byteCount == 0, sourceLocation: sourceLocation)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// What `body` returned or threw.
private nonisolated(nonsending) func outcome<T>(_ body: () async throws(ImageError) -> T) async -> Result<T, ImageError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

/// Runs `body`, returning its typed error (or nil) and how long it took.
private nonisolated(nonsending) func timed<T>(_ body: () async throws(ImageError) -> T) async -> (error: ImageError?, seconds: Double) {
    let start = ContinuousClock.now
    var failure: ImageError?
    do { _ = try await body() } catch { failure = error }
    let elapsed = ContinuousClock.now - start
    return (failure, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

@Suite("Failure modes: the network")
struct FailureModeNetworkTests {
    static let limit = 1 << 20

    @Test("a body without end (no Content-Length) stops at maxDataBytes with .overLimit and is cancelled",
          .timeLimit(.minutes(3)))
    func endlessBodyStopsAtTheByteLimit() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let rig = try NetworkRig(maxDataBytes: Self.limit)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            server.serve("/endless.jpg", .endless(body: jpeg.prefix(4096), contentType: "image/jpeg"))
            let request = ImageRequest(url: server.url("/endless.jpg"))

            // image(for:)
            let (imageError, seconds) = await timed { () throws(ImageError) in try await rig.pipeline.image(for: request) }
            guard case .overLimit(.encodedBytes(let bytes, let limit))? = imageError else {
                Issue.record("expected .overLimit(.encodedBytes), got \(String(describing: imageError))")
                return
            }
            #expect(limit == Self.limit)
            #expect(bytes > Self.limit && bytes <= Self.limit + 512 * 1024, "stopped at \(bytes) bytes")
            #expect(imageError?.description.hasSuffix("is over the 1 MiB limit") == true, "\(imageError!)")
            #expect(seconds < 30, "took \(seconds) s")
            // The transfer was cancelled: the server saw the client go away.
            #expect(await pipelineEventually { server.cancelledRequestCount("/endless.jpg") == 1 })
            await rig.expectNothingCached(request)

            // A task: progress arrives, then the same error; data(for:) too.
            let task = rig.pipeline.task(for: request)
            var progressEvents = 0
            var lastProgress = 0
            for await progress in task.progress {
                progressEvents += 1
                #expect(progress.total == nil)
                lastProgress = progress.completed
            }
            #expect(progressEvents > 0)
            #expect(lastProgress <= Self.limit)
            do throws(ImageError) {
                _ = try await task.image
                Issue.record("an endless body loaded")
            } catch {
                guard case .overLimit(.encodedBytes) = error else { Issue.record("task: \(error)"); return }
            }
            do throws(ImageError) {
                _ = try await rig.pipeline.data(for: request)
                Issue.record("an endless body loaded as data")
            } catch {
                guard case .overLimit(.encodedBytes) = error else { Issue.record("data(for:): \(error)"); return }
            }
            #expect(await pipelineEventually { server.cancelledRequestCount("/endless.jpg") == 3 })
            await rig.expectNothingCached(request)
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")
        }
    }

    @Test("a Content-Length over maxDataBytes fails before the body; a .data closure over it fails too",
          .timeLimit(.minutes(3)))
    func announcedLengthOverTheLimitFailsUpFront() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        // The default limit: a response announcing 300 MiB is refused without reading it.
        let rig = try NetworkRig()
        defer { rig.cleanUp() }
        try await withTestServer { server in
            let announced = 300 * 1024 * 1024
            server.serve("/huge.jpg", .endless(body: jpeg, contentType: "image/jpeg", contentLength: .announced(announced)))
            let request = ImageRequest(url: server.url("/huge.jpg"))
            let task = rig.pipeline.task(for: request)
            var received = 0
            for await progress in task.progress { received = max(received, progress.completed) }
            let result = await outcome { () throws(ImageError) in try await task.image }
            let limit = ImagePipeline.Configuration.defaultMaxDataBytes
            #expect(limit == 256 * 1024 * 1024)
            #expect(result.failure == .overLimit(.encodedBytes(bytes: announced, limit: limit)))
            #expect(result.failure?.description == "image data of 300 MiB (314,572,800 bytes) is over the 256 MiB limit")
            #expect(received == 0, "read \(received) bytes of a body it had refused")
            #expect(await pipelineEventually { server.cancelledRequestCount("/huge.jpg") == 1 })
            await rig.expectNothingCached(request)

            // What a .data closure returns is held to the same limit.
            let small = try NetworkRig(maxDataBytes: 1000)
            defer { small.cleanUp() }
            let closure = ImageRequest(source: .data(id: "too-big") { jpeg })
            await #expect(throws: ImageError.overLimit(.encodedBytes(bytes: jpeg.count, limit: 1000))) {
                try await small.pipeline.image(for: closure)
            }
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 && small.pipeline.inFlightCount == 0 })
        }
    }

    @Test("a Content-Length smaller than the body: the image is cut, fails typed, and is not served from the disk later",
          .timeLimit(.minutes(3)))
    func contentLengthSmallerThanTheBody() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let rig = try NetworkRig(maxDataBytes: Self.limit)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            // Announces 1,000 bytes, then sends the whole image and filler without end: the
            // client reads what was announced and stops.
            server.serve("/lying.jpg", .endless(body: jpeg, contentType: "image/jpeg", contentLength: .announced(1000)))
            let request = ImageRequest(url: server.url("/lying.jpg"))
            let result = await outcome { () throws(ImageError) in try await rig.pipeline.image(for: request) }
            switch result.failure {
            case .truncated(.jpeg, let received, _)?:
                #expect(received == 1000)
            case .decodingFailed(.jpeg, _)?:
                break
            default:
                Issue.record("expected a truncated JPEG, got \(result)")
            }
            // The cut bytes must not stay in the disk cache to fail every later load.
            await rig.cache.waitForPendingWrites()
            #expect(rig.cache.data(for: rig.pipeline.dataKey(for: request)) == nil)
            #expect(rig.cache.count == 0)

            // Fixed on the server: the next load goes back to it and succeeds.
            server.serve("/lying.jpg", data: jpeg, contentType: "image/jpeg")
            let image = try await rig.pipeline.image(for: request)
            #expect(image.bitmap.size == HTTPTestImages.source.size)
            #expect(server.requestCount("/lying.jpg") == 2)
            await rig.cache.waitForPendingWrites()
            #expect(rig.cache.data(for: rig.pipeline.dataKey(for: request)) == jpeg)
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")
        }
    }

    @Test("a server that stalls mid-body ends with .network \"timed out\" within the loader's timeout",
          .timeLimit(.minutes(3)))
    func stallMidBodyTimesOut() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let timeout = 1.5
        let rig = try NetworkRig(maxDataBytes: Self.limit, timeout: timeout)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            server.serve("/stall.jpg", .stalling(body: jpeg, after: 2000, contentType: "image/jpeg"))
            let url = server.url("/stall.jpg")
            let request = ImageRequest(url: url)
            let (error, seconds) = await timed { () throws(ImageError) in try await rig.pipeline.image(for: request) }
            let expected = ImageError.network(reason: "timed out: no data for 1.5 s after 2,000 of \(jpeg.count.grouped) bytes", url: url)
            #expect(error == expected, "\(String(describing: error))")
            #expect(error?.urlErrorCode == .timedOut)
            #expect(seconds >= timeout - 0.1, "gave up after \(seconds) s")
            #expect(seconds < 20, "took \(seconds) s to notice a \(timeout) s stall")
            #expect(await pipelineEventually { server.cancelledRequestCount("/stall.jpg") == 1 })
            await rig.expectNothingCached(request)

            // The loader alone: the 2,000 bytes, then the same error.
            let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: url)))
            #expect(load.body == jpeg.prefix(2000))
            #expect(load.imageError == expected)

            // Stalled right after the headers, and before them.
            server.serve("/headers-only.jpg", .stalling(body: jpeg, after: 0, contentType: "image/jpeg"))
            let headersOnly = server.url("/headers-only.jpg")
            let silent = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: headersOnly)))
            #expect(silent.imageError == .network(reason: "timed out: no data for 1.5 s after 0 of \(jpeg.count.grouped) bytes",
                                                  url: headersOnly))
            server.serve("/no-headers.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", isGated: true))
            let noHeaders = server.url("/no-headers.jpg")
            let waiting = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: noHeaders)))
            #expect(waiting.imageError == .network(reason: "timed out waiting for the server (1.5 s)", url: noHeaders))
            server.release("/no-headers.jpg")
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")
        }
    }

    @Test("timeouts under a second are kept exactly (swift-corelibs-foundation alone would make them zero)",
          .timeLimit(.minutes(3)))
    func subSecondTimeouts() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        try await withTestServer { server in
            // Answers after 0.1 s: well within a 0.6 s timeout.
            server.serve("/prompt.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", delay: .milliseconds(100)))
            let prompt = await CollectedLoad.collect(URLSessionDataLoader(timeout: 0.6).loadData(for: URLRequest(url: server.url("/prompt.jpg"))))
            #expect(prompt.error == nil, "\(String(describing: prompt.error))")
            #expect(prompt.body == jpeg)
            // Stalls after 500 bytes: ends after 0.4 s, not at once and not after a whole second.
            server.serve("/stall.jpg", .stalling(body: jpeg, after: 500, contentType: "image/jpeg"))
            let url = server.url("/stall.jpg")
            let (error, seconds) = await timed { () throws(ImageError) in
                var request = URLRequest(url: url)
                request.timeoutInterval = 0.4 // lower than the loader's: the request's wins
                let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: 30).loadData(for: request))
                if let error = load.imageError { throw error }
            }
            #expect(error == .network(reason: "timed out: no data for 0.4 s after 500 of \(jpeg.count.grouped) bytes", url: url))
            #expect(seconds >= 0.35 && seconds < 10, "timed out after \(seconds) s")
        }
    }

    @Test("3,000 loads cancelled as soon as they start: each ends, none crashes the process", .timeLimit(.minutes(3)))
    func loadsCancelledAsTheyStart() async throws {
        // With the session's URLCache, swift-corelibs-foundation trapped here in about one run
        // of three ("Trying to access a behaviour for a task that in not in the registry").
        let jpeg = try HTTPTestImages.jpeg()
        try await withTestServer { server in
            server.serve("/photo.jpg", data: jpeg, contentType: "image/jpeg")
            let loader = URLSessionDataLoader(timeout: 30)
            var outcomes: [String: Int] = [:]
            for round in 0..<3000 {
                let stream = loader.loadData(for: URLRequest(url: server.url("/photo.jpg?round=\(round)")))
                let consumer = Task { () -> Int in
                    var bytes = 0
                    for try await event in stream { if case .chunk(let data) = event { bytes += data.count } }
                    return bytes
                }
                if round % 3 == 0 { await Task.yield() }
                consumer.cancel()
                switch await consumer.result {
                case .success(let bytes): outcomes[bytes == jpeg.count ? "whole" : "ended early", default: 0] += 1
                case .failure(let error as ImageError): outcomes["\(error)", default: 0] += 1
                case .failure(let error): outcomes["untyped \(error)", default: 0] += 1
                }
            }
            // Cancelled; or ended early, as a stream does when the task iterating it is cancelled;
            // or, when the cancel came late, the whole body. No other error.
            #expect(Set(outcomes.keys).isSubset(of: ["cancelled", "ended early", "whole"]), "\(outcomes)")
            #expect(outcomes["whole", default: 0] < 3000, "no load was cancelled: \(outcomes)")
        }
    }

    @Test("a slow body whose pieces each come within the timeout is not cut by it", .timeLimit(.minutes(3)))
    func slowButSteadyBodyCompletes() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let rig = try NetworkRig(maxDataBytes: Self.limit, timeout: 1.5)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            // Six pieces 0.5 s apart: about 2.5 s in all, longer than the timeout.
            server.serve("/slow.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", chunkSize: jpeg.count / 6 + 1,
                                                    chunkPause: .milliseconds(500)))
            let request = ImageRequest(url: server.url("/slow.jpg"))
            let (error, seconds) = await timed { () throws(ImageError) in try await rig.pipeline.image(for: request) }
            #expect(error == nil)
            #expect(seconds > 1.5, "the body was not slower than the timeout (\(seconds) s)")
            await rig.cache.waitForPendingWrites()
            #expect(rig.cache.data(for: rig.pipeline.dataKey(for: request)) == jpeg)
        }
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
