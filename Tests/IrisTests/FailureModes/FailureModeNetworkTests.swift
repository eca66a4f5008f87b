import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// A pipeline over a real ``URLSessionDataLoader`` and a real ``DataCache`` in a fresh
/// directory, for the network failure modes; `cleanUp()` removes the directory.
private struct NetworkRig {
    let pipeline: ImagePipeline
    let cache: DataCache
    let directory: URL

    /// A rig whose loader times out after `timeout` seconds of `clock` (a ``VirtualClock`` the
    /// test moves), or, without one, after the suite's hang timeout.
    init(
        maxDataBytes: Int = ImagePipeline.Configuration.defaultMaxDataBytes, timeout: TimeInterval = httpHangTimeout,
        clock: VirtualClock? = nil, memoryCache: MemoryCache? = nil
    ) throws {
        directory = failureModeDirectory("network-cache")
        cache = try DataCache(directory: directory)
        let loader = clock.map { URLSessionDataLoader(timeout: timeout, clock: $0) } ?? URLSessionDataLoader(timeout: timeout)
        pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: loader, dataCache: cache,
                memoryCache: memoryCache, maxDataBytes: maxDataBytes))
    }

    /// Nothing reached the disk cache: no entry, no file, no bytes kept for resuming.
    func expectNothingCached(_ request: ImageRequest, sourceLocation: SourceLocation = #_sourceLocation) async {
        await cache.waitForPendingWrites()
        #expect(cache.data(for: pipeline.dataKey(for: request)) == nil, sourceLocation: sourceLocation)
        #expect(cache.count == 0, sourceLocation: sourceLocation)
        #expect(
            failureModeFileNames(in: directory).isEmpty, "files: \(failureModeFileNames(in: directory))",
            sourceLocation: sourceLocation)
        #expect(pipeline.configuration.resumableData?.byteCount == 0, sourceLocation: sourceLocation)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// What `body` returned or threw.
private nonisolated(nonsending) func outcome<T>(_ body: () async throws(ImageError) -> T) async -> Result<T, ImageError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

@Suite("Failure modes: the network")
struct FailureModeNetworkTests {
    static let limit = 1 << 20

    @Test(
        "a body without end (no Content-Length) stops at maxDataBytes with .overLimit and is cancelled",
        .timeLimit(.minutes(10)))
    func endlessBodyStopsAtTheByteLimit() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let rig = try NetworkRig(maxDataBytes: Self.limit)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            server.serve("/endless.jpg", .endless(body: jpeg.prefix(4096), contentType: "image/jpeg"))
            let request = ImageRequest(url: server.url("/endless.jpg"))

            // image(for:) (the test's time limit is the hang detector)
            let imageError = await outcome { () throws(ImageError) in try await rig.pipeline.image(for: request) }.failure
            guard case .overLimit(.encodedBytes(let bytes, let limit))? = imageError else {
                Issue.record("expected .overLimit(.encodedBytes), got \(String(describing: imageError))")
                return
            }
            #expect(limit == Self.limit)
            #expect(bytes > Self.limit && bytes <= Self.limit + 512 * 1024, "stopped at \(bytes) bytes")
            #expect(imageError?.description.hasSuffix("is over the 1 MiB limit") == true, "\(imageError!)")
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
                guard case .overLimit(.encodedBytes) = error else {
                    Issue.record("task: \(error)")
                    return
                }
            }
            do throws(ImageError) {
                _ = try await rig.pipeline.data(for: request)
                Issue.record("an endless body loaded as data")
            } catch {
                guard case .overLimit(.encodedBytes) = error else {
                    Issue.record("data(for:): \(error)")
                    return
                }
            }
            #expect(await pipelineEventually { server.cancelledRequestCount("/endless.jpg") == 3 })
            await rig.expectNothingCached(request)

            // The loader stops the body itself, read or not: bytes nobody has taken yet cannot pile up.
            server.serve("/unread.jpg", .endless(body: jpeg.prefix(4096), contentType: "image/jpeg"))
            let unread = URLSessionDataLoader(timeout: httpHangTimeout).loadData(
                for: URLRequest(url: server.url("/unread.jpg")),
                byteLimit: Self.limit)
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

    @Test(
        "a Content-Length over maxDataBytes fails before the body; a .data closure over it fails too",
        .timeLimit(.minutes(10)))
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

    @Test(
        "a Content-Length smaller than the body: the image is cut, fails typed, and is not served from the disk later",
        .timeLimit(.minutes(10)))
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

    @Test(
        "a server that stalls mid-body ends with .network \"timed out\" once the loader's timeout has passed",
        .timeLimit(.minutes(10)))
    func stallMidBodyTimesOut() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let total = jpeg.count.grouped
        try await withTestServer { server in
            // Through the pipeline: the typed error, the transfer closed, nothing kept. Time is a
            // virtual clock: it moves by the timeout only once the 2,000 bytes are in.
            let clock = VirtualClock()
            let rig = try NetworkRig(maxDataBytes: Self.limit, timeout: 1.5, clock: clock)
            defer { rig.cleanUp() }
            server.serve("/stall.jpg", .stalling(body: jpeg, after: 2000, contentType: "image/jpeg"))
            let url = server.url("/stall.jpg")
            let request = ImageRequest(url: url)
            let task = rig.pipeline.task(for: request)
            #expect(await progress(of: task, reaches: 2000))
            clock.advance(by: .milliseconds(1500))
            let error = await outcome { () throws(ImageError) in try await task.image }.failure
            #expect(error?.withoutCause == .network(reason: "timed out: no data for 1.5 s after 2,000 of \(total) bytes", url: url))
            #expect(error?.urlErrorCode == .timedOut)
            #expect(await pipelineEventually { server.cancelledRequestCount("/stall.jpg") == 1 })
            await rig.expectNothingCached(request)
            #expect(await pipelineEventually { rig.pipeline.inFlightCount == 0 }, "left in flight: \(rig.pipeline.inFlight)")

            // The loader alone: the 2,000 bytes, then the same error; stalled right after the
            // headers, the same with 0 bytes.
            for sent in [2000, 0] {
                let url = server.url("/loader-stall-\(sent).jpg")
                server.serve(url.path, .stalling(body: jpeg, after: sent, contentType: "image/jpeg"))
                let clock = VirtualClock()
                var moved = false
                let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: 1.5, clock: clock).loadData(for: URLRequest(url: url)))
                { load in
                    if !moved, load.responseCount == 1, load.receivedCount >= sent {
                        moved = true
                        clock.advance(by: .milliseconds(1500))
                    }
                }
                expectSameBytes(load.body, jpeg.prefix(sent), "stalled after \(sent)")
                #expect(
                    load.imageError?.withoutCause
                        == .network(reason: "timed out: no data for 1.5 s after \(sent.grouped) of \(total) bytes", url: url))
            }

            // No response at all: the server holds it.
            server.serve("/no-headers.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", isGated: true))
            let noHeaders = server.url("/no-headers.jpg")
            let waitingClock = VirtualClock()
            let stream = URLSessionDataLoader(timeout: 1.5, clock: waitingClock).loadData(for: URLRequest(url: noHeaders))
            let waiting = Task { await CollectedLoad.collect(stream) }
            #expect(await pipelineEventually { server.requestCount("/no-headers.jpg") == 1 })
            waitingClock.advance(by: .milliseconds(1500))
            #expect(
                await waiting.value.imageError?.withoutCause == .network(reason: "timed out waiting for the server (1.5 s)", url: noHeaders)
            )
            server.release("/no-headers.jpg")
        }
    }

    @Test(
        "timeouts under a second are kept exactly: idle 0.39 s passes, 0.4 s ends the load (never zero, never a whole second)",
        .timeLimit(.minutes(10)))
    func subSecondTimeouts() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let piece = jpeg.count / 3 + 1
        try await withTestServer { server in
            // Three pieces, each released after 0.39 s of the loader's (virtual) time: 0.78 s in
            // all, every gap under the request's 0.4 s. A timeout made zero (as swift-corelibs-
            // foundation's would be) fails at the first check.
            server.serve("/pieces.jpg", .inPieces(body: jpeg, pieceSize: piece, contentType: "image/jpeg"))
            let clock = VirtualClock()
            var request = URLRequest(url: server.url("/pieces.jpg"))
            request.timeoutInterval = 0.4  // lower than the loader's: the request's wins
            var released = 0
            let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: 30, clock: clock).loadData(for: request)) { load in
                let arrived = load.receivedCount / piece
                if arrived > released {
                    released = arrived
                    clock.advance(by: .milliseconds(390))
                    server.releasePieces("/pieces.jpg", through: arrived)
                }
            }
            #expect(load.error == nil)
            expectSameBytes(load.body, jpeg)
            #expect(clock.now.offset == .milliseconds(780))

            // Stalled after 500 bytes: 0.4 s later (not a whole second) it ends.
            let url = server.url("/stall.jpg")
            server.serve(url.path, .stalling(body: jpeg, after: 500, contentType: "image/jpeg"))
            var stallRequest = URLRequest(url: url)
            stallRequest.timeoutInterval = 0.4
            let stallClock = VirtualClock()
            var moved = false
            let stalled = await CollectedLoad.collect(URLSessionDataLoader(timeout: 30, clock: stallClock).loadData(for: stallRequest)) {
                load in
                if !moved, load.receivedCount >= 500 {
                    moved = true
                    stallClock.advance(by: .milliseconds(400))
                }
            }
            #expect(
                stalled.imageError?.withoutCause
                    == .network(reason: "timed out: no data for 0.4 s after 500 of \(jpeg.count.grouped) bytes", url: url))
        }
    }

    @Test("on the wall clock, the session's own timeout stays a backstop above the loader's (whole seconds, never zero)")
    func sessionBackstop() {
        #expect(URLSessionDataLoader.backstop(for: 0.4, clock: .continuous) == 1 + 1)
        #expect(URLSessionDataLoader.backstop(for: 1.5, clock: .continuous) == 2 + 1)
        #expect(URLSessionDataLoader.backstop(for: 60, clock: .continuous) == 60 + 1)
        // Under a test's clock the watchdog's time is not the session's: the session only catches hangs.
        #expect(URLSessionDataLoader.backstop(for: 0.4, clock: LoadClock(VirtualClock())) == 3600)
    }

    @Test("3,000 loads cancelled as soon as they start: each ends, none crashes the process", .timeLimit(.minutes(10)))
    func loadsCancelledAsTheyStart() async throws {
        // With the session's URLCache, swift-corelibs-foundation trapped here in about one run
        // of three ("Trying to access a behaviour for a task that in not in the registry").
        let jpeg = try HTTPTestImages.jpeg()
        try await withTestServer { server in
            server.serve("/photo.jpg", data: jpeg, contentType: "image/jpeg")
            let loader = URLSessionDataLoader(timeout: httpHangTimeout)
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

    @Test("a slow body whose pieces each come within the timeout is not cut by it", .timeLimit(.minutes(10)))
    func slowButSteadyBodyCompletes() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let clock = VirtualClock()
        let rig = try NetworkRig(maxDataBytes: Self.limit, timeout: 1.5, clock: clock)
        defer { rig.cleanUp() }
        try await withTestServer { server in
            // Six pieces, each released 1 s (of the loader's virtual time) after the one before
            // arrived: 5 s in all, longer than the timeout. A timeout of the whole load would cut it.
            let piece = jpeg.count / 6 + 1
            server.serve("/slow.jpg", .inPieces(body: jpeg, pieceSize: piece, contentType: "image/jpeg"))
            let request = ImageRequest(url: server.url("/slow.jpg"))
            let task = rig.pipeline.task(for: request)
            var released = 0
            for await progress in task.progress {
                let arrived = progress.completed / piece
                if arrived > released {
                    released = arrived
                    clock.advance(by: .seconds(1))
                    server.releasePieces("/slow.jpg", through: arrived)
                }
            }
            let error = await outcome { () throws(ImageError) in try await task.image }.failure
            #expect(error == nil)
            #expect(clock.now.offset == .seconds(5))
            await rig.cache.waitForPendingWrites()
            expectSameBytes(rig.cache.data(for: rig.pipeline.dataKey(for: request)), jpeg)
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
