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

/// Runs `attempt` (given its number) until it returns nil, at most `attempts` times, pausing a
/// second between attempts, and records an issue with every reason it gave if it never does.
///
/// For checks of timing only: two cores shared with the whole suite (and other work) can stop
/// any thread for seconds (the test server writes from the cooperative pool that CPU-bound tests
/// hold), so a load that should finish within a timeout sometimes does not. A real defect fails
/// every attempt: a timeout of the whole load cuts every slow body, a timer truncated to whole
/// seconds ends every prompt load under one second.
private nonisolated(nonsending) func failureModeAttempts(_ what: String, attempts: Int = 5,
                                                         _ attempt: (Int) async throws -> String?) async {
    var reasons: [String] = []
    for number in 0..<attempts {
        if number > 0 { try? await Task.sleep(for: .seconds(1)) }
        do {
            guard let reason = try await attempt(number) else {
                if !reasons.isEmpty { print("\(what): held on attempt \(number + 1), after: \(reasons.joined(separator: "; "))") }
                return
            }
            reasons.append(reason)
        } catch {
            reasons.append("threw \(error)")
        }
    }
    Issue.record("\(what): failed \(attempts) times: \(reasons.joined(separator: "; "))")
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
            // Not a hang. (The bound is the suite's usual 90 s: in a full run on two shared cores,
            // the cooperative pool that carries the pipeline can be held for tens of seconds.)
            #expect(seconds < 90, "took \(seconds) s")
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

            // The loader stops the body itself, read or not: bytes nobody has taken yet cannot pile up.
            server.serve("/unread.jpg", .endless(body: jpeg.prefix(4096), contentType: "image/jpeg"))
            let unread = URLSessionDataLoader(timeout: 30).loadData(for: URLRequest(url: server.url("/unread.jpg")), resuming: nil,
                                                                    byteLimit: Self.limit) { _, _ in }
            #expect(await pipelineEventually { server.cancelledRequestCount("/unread.jpg") == 1 }, "cancelled before any read")
            let load = await CollectedLoad.collect(unread)
            #expect(load.body.count <= Self.limit)
            guard case .overLimit(.encodedBytes(let unreadBytes, Self.limit))? = load.imageError, unreadBytes > Self.limit else {
                Issue.record("the unread load ended with \(String(describing: load.error))")
                return
            }
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
            expectSameBytes(rig.cache.data(for: rig.pipeline.dataKey(for: request)), jpeg)
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")
        }
    }

    @Test("a server that stalls mid-body ends with .network \"timed out\" within the loader's timeout",
          .timeLimit(.minutes(5)))
    func stallMidBodyTimesOut() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let timeout = 1.5
        let total = jpeg.count.grouped
        try await withTestServer { server in
            // Through the pipeline: the typed error, within the bound, the transfer closed, nothing kept.
            await failureModeAttempts("pipeline, stall after 2,000 bytes") { attempt in
                let rig = try NetworkRig(maxDataBytes: Self.limit, timeout: timeout)
                defer { rig.cleanUp() }
                let path = "/stall-\(attempt).jpg"
                server.serve(path, .stalling(body: jpeg, after: 2000, contentType: "image/jpeg"))
                let url = server.url(path)
                let request = ImageRequest(url: url)
                let (error, seconds) = await timed { () throws(ImageError) in try await rig.pipeline.image(for: request) }
                // A timer never fires early, whatever the load on the machine.
                #expect(seconds >= timeout - 0.05, "gave up after \(seconds) s")
                #expect(seconds < 90, "took \(seconds) s to notice a \(timeout) s stall")
                #expect(await pipelineEventually { server.cancelledRequestCount(path) == 1 })
                await rig.expectNothingCached(request)
                #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")
                let expected = ImageError.network(reason: "timed out: no data for 1.5 s after 2,000 of \(total) bytes", url: url)
                guard error == expected, error?.urlErrorCode == .timedOut else { return "\(String(describing: error))" }
                return nil
            }

            // The loader alone: the 2,000 bytes, then the same error.
            await failureModeAttempts("loader, stall after 2,000 bytes") { attempt in
                let url = server.url("/loader-stall-\(attempt).jpg")
                server.serve(url.path, .stalling(body: jpeg, after: 2000, contentType: "image/jpeg"))
                let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: url)))
                let expected = ImageError.network(reason: "timed out: no data for 1.5 s after 2,000 of \(total) bytes", url: url)
                return load.body == jpeg.prefix(2000) && load.imageError == expected
                    ? nil : "\(load.body.count) bytes, \(String(describing: load.error))"
            }

            // Stalled right after the headers.
            await failureModeAttempts("loader, stall after the headers") { attempt in
                let url = server.url("/headers-only-\(attempt).jpg")
                server.serve(url.path, .stalling(body: jpeg, after: 0, contentType: "image/jpeg"))
                let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: url)))
                let expected = ImageError.network(reason: "timed out: no data for 1.5 s after 0 of \(total) bytes", url: url)
                return load.imageError == expected ? nil : "\(String(describing: load.error))"
            }

            // No response at all: the server holds it (it cannot come early, so no retry).
            server.serve("/no-headers.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", isGated: true))
            let noHeaders = server.url("/no-headers.jpg")
            let waiting = await CollectedLoad.collect(URLSessionDataLoader(timeout: timeout).loadData(for: URLRequest(url: noHeaders)))
            #expect(waiting.imageError == .network(reason: "timed out waiting for the server (1.5 s)", url: noHeaders))
            server.release("/no-headers.jpg")
        }
    }

    @Test("timeouts under a second are kept exactly (swift-corelibs-foundation alone would make them zero)",
          .timeLimit(.minutes(3)))
    func subSecondTimeouts() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        try await withTestServer { server in
            // Sent at once: well within a 0.8 s timeout (corelibs alone failed it at once, every time).
            server.serve("/prompt.jpg", data: jpeg, contentType: "image/jpeg")
            await failureModeAttempts("a prompt load under a 0.8 s timeout") { _ in
                let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: 0.8).loadData(for: URLRequest(url: server.url("/prompt.jpg"))))
                return load.error == nil && load.body == jpeg ? nil : "\(String(describing: load.error))"
            }
            // Stalls after 500 bytes: ends after 0.4 s, not at once and not after a whole second.
            await failureModeAttempts("a 0.4 s stall") { attempt in
                let url = server.url("/stall-\(attempt).jpg")
                server.serve(url.path, .stalling(body: jpeg, after: 500, contentType: "image/jpeg"))
                let (error, seconds) = await timed { () throws(ImageError) in
                    var request = URLRequest(url: url)
                    request.timeoutInterval = 0.4 // lower than the loader's: the request's wins
                    let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: 30).loadData(for: request))
                    if let error = load.imageError { throw error }
                }
                #expect(seconds >= 0.35, "timed out after \(seconds) s")
                let expected = ImageError.network(reason: "timed out: no data for 0.4 s after 500 of \(jpeg.count.grouped) bytes", url: url)
                return error == expected && seconds < 0.95 ? nil : "\(String(describing: error)) after \(seconds) s"
            }
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
            // Six pieces 0.4 s apart: over 2 s in all, longer than the timeout. A timeout of the
            // whole load would cut it every time.
            await failureModeAttempts("a slow, steady body") { attempt in
                let path = "/slow-\(attempt).jpg"
                server.serve(path, TestHTTPRoute(body: jpeg, contentType: "image/jpeg", chunkSize: jpeg.count / 6 + 1,
                                                 chunkPause: .milliseconds(400)))
                let request = ImageRequest(url: server.url(path))
                let (error, seconds) = await timed { () throws(ImageError) in try await rig.pipeline.image(for: request) }
                #expect(error != nil || seconds > 1.5, "the body was not slower than the timeout (\(seconds) s)")
                guard error == nil else { return "\(error!) after \(seconds) s" }
                await rig.cache.waitForPendingWrites()
                expectSameBytes(rig.cache.data(for: rig.pipeline.dataKey(for: request)), jpeg)
                return nil
            }
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
