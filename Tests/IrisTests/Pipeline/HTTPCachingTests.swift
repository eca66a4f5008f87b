import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Iris
import IrisTestSupport

/// HTTP caching as a private cache does it (RFC 9111), against a real origin on loopback: each
/// "launch" is a new pipeline over the same disk-cache folder, and time moves only on the test's
/// wall clock. Which image is shown is read off its size: the origin's two versions differ.
@Suite("HTTP caching")
struct HTTPCachingTests {
    static let old = try! TestImages.png(width: 40, height: 30, seed: 1)
    static let new = try! TestImages.png(width: 50, height: 20, seed: 2)
    static let oldSize = PixelSize(width: 40, height: 30)
    static let newSize = PixelSize(width: 50, height: 20)

    static func route(_ body: Data, etag: String? = nil, lastModified: String? = nil, _ headers: [(String, String)] = []) -> TestHTTPRoute {
        TestHTTPRoute(body: body, contentType: "image/png", etag: etag, lastModified: lastModified, headers: headers)
    }

    /// Loads `path` once in a new pipeline over `folder` (a launch of the app) and returns the size shown.
    static func launch(
        _ server: TestHTTPServer, _ path: String, folder: URL, clock: ManualWallClock,
        policy: ImageRequest.CachePolicy = .useProtocolCachePolicy, configure: (inout HTTPCachePolicy) -> Void = { _ in }
    ) async throws(ImageError) -> (size: PixelSize, fetched: FetchedData) {
        let (pipeline, disk) = try! ImagePipeline.launched(diskCache: folder, clock: clock, policy: configure)
        let request = ImageRequest(url: server.url(path), cachePolicy: policy)
        let fetched = try await pipeline.fetch(request)
        let image = try await pipeline.image(for: request)
        await disk.waitForPendingWrites()
        return (image.bitmap.size, fetched)
    }

    @Test("fresh within max-age: used without asking")
    func freshIsUsed() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).size == Self.oldSize)
            server.serve("/a.png", Self.route(Self.new, etag: "\"v2\"", [("Cache-Control", "max-age=60")]))
            clock.advance(by: 59)
            let second = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(second.size == Self.oldSize)
            #expect(second.fetched.origin == .diskCache)
            #expect(server.requestCount("/a.png") == 1)
        }
    }

    @Test("stale + 200: a conditional request, the new image shown and stored")
    func staleChanged() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            server.serve("/a.png", Self.route(Self.new, etag: "\"v2\"", [("Cache-Control", "max-age=60")]))
            clock.advance(by: 86_400)  // relaunched the next day
            let next = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(next.size == Self.newSize)
            #expect(next.fetched.origin == .loaded)
            #expect(server.requests("/a.png").last?.ifNoneMatch == "\"v1\"")
            // The new bytes are what is stored now, fresh: the launch after asks nothing.
            let count = server.requestCount("/a.png")
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).size == Self.newSize)
            #expect(server.requestCount("/a.png") == count)
        }
    }

    @Test("stale + 304: no body, the stored image kept, its freshness renewed from the 304")
    func staleNotModified() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            clock.advance(by: 3_600)
            let next = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(next.size == Self.oldSize)
            #expect(next.fetched.origin == .revalidated)
            #expect(server.requests("/a.png").count == 2)
            #expect(server.requests("/a.png").last?.isConditional == true)
            // Renewed: fresh for another 60 s from the revalidation.
            clock.advance(by: 30)
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).fetched.origin == .diskCache)
            #expect(server.requests("/a.png").count == 2)
        }
    }

    @Test("a relaunch over stale entries (max-age=0) makes one conditional request an image, and the 304s cost no body")
    func oneRevalidationPerImage() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            for index in 0..<3 {
                server.serve("/\(index).png", Self.route(Self.old, etag: "\"v\(index)\"", [("Cache-Control", "max-age=0")]))
            }
            let (first, firstDisk) = try ImagePipeline.launched(diskCache: folder, clock: clock)
            for index in 0..<3 { _ = try await first.image(for: ImageRequest(url: server.url("/\(index).png"))) }
            await firstDisk.waitForPendingWrites()
            clock.advance(by: 1)
            let (second, _) = try ImagePipeline.launched(diskCache: folder, clock: clock, memoryCache: MemoryCache())
            for index in 0..<3 {
                #expect(try await second.image(for: ImageRequest(url: server.url("/\(index).png"))).bitmap.size == Self.oldSize)
            }
            #expect(await pipelineEventually { second.inFlightCount == 0 })
            for index in 0..<3 {
                let requests = server.requests("/\(index).png")
                #expect(requests.count == 2 && requests.last?.ifNoneMatch == "\"v\(index)\"", "\(requests)")
            }
        }
    }

    @Test("no-store: never written to disk")
    func noStore() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "no-store, max-age=600")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            let disk = try DataCache(directory: folder)
            #expect(disk.count == 0)
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).fetched.origin == .loaded)
            #expect(server.requests("/a.png").allSatisfy { !$0.isConditional })
        }
    }

    @Test("no-cache: stored, revalidated before each use")
    func noCache() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "no-cache, max-age=600")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            let before = server.requestCount("/a.png")
            let next = try await Self.launch(server, "/a.png", folder: folder, clock: clock)  // no time passed
            #expect(next.fetched.origin == .revalidated)
            #expect(server.requestCount("/a.png") > before)
            #expect(server.requests("/a.png").last?.ifNoneMatch == "\"v1\"")
        }
    }

    @Test("stale and the origin unreachable: the stale image, but the error under must-revalidate")
    func offline() async throws {
        let folder = temporaryCacheFolder(), strict = temporaryCacheFolder(), clock = ManualWallClock()
        var url: URL?
        try await withTestServer { server in
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            server.serve("/strict.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60, must-revalidate")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            _ = try await Self.launch(server, "/strict.png", folder: strict, clock: clock)
            url = server.url("/")
        }
        // The server is gone: its port refuses connections.
        clock.advance(by: 86_400)
        let (pipeline, _) = try ImagePipeline.launched(diskCache: folder, clock: clock)
        let fetched = try await pipeline.fetch(ImageRequest(url: url!.appendingPathComponent("a.png")))
        #expect(fetched.origin == .staleAfterError)
        if case .network = fetched.staleBecause {} else { Issue.record("stale because \(String(describing: fetched.staleBecause))") }
        let image = try await pipeline.image(for: ImageRequest(url: url!.appendingPathComponent("a.png")))
        #expect(image.bitmap.size == Self.oldSize)

        let (strictPipeline, _) = try ImagePipeline.launched(diskCache: strict, clock: clock)
        let error = await thrownImageError {
            _ = try await strictPipeline.image(for: ImageRequest(url: url!.appendingPathComponent("strict.png")))
        }
        if case .network = error {} else { Issue.record("must-revalidate offline gave \(String(describing: error))") }
    }

    @Test("stale-if-error: the stale image when the origin fails within the window, the error after it")
    func staleIfError() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60, stale-if-error=3600")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            server.serve("/a.png", .error(503))
            clock.advance(by: 600)
            let within = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(within.size == Self.oldSize)
            #expect(within.fetched.origin == .staleAfterError)
            #expect(within.fetched.staleBecause == .httpStatus(code: 503, url: server.url("/a.png")))
            clock.advance(by: 7_200)
            let error = await thrownImageError { _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock) }
            #expect(error == .httpStatus(code: 503, url: server.url("/a.png")))
        }
    }

    @Test("an error status without stale-if-error is the error, not the stale image")
    func errorStatusWithoutStaleIfError() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            server.serve("/a.png", .error(500))
            clock.advance(by: 600)
            let error = await thrownImageError { _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock) }
            #expect(error == .httpStatus(code: 500, url: server.url("/a.png")))
        }
    }

    @Test("no caching headers: fresh for the policy's default, then loaded again in full")
    func noHeaders() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            clock.advance(by: 3_599)
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).fetched.origin == .diskCache)
            #expect(server.requestCount("/a.png") == 1)
            server.serve("/a.png", Self.route(Self.new))
            clock.advance(by: 2)
            let next = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(next.size == Self.newSize)
            #expect(server.requests("/a.png").last?.isConditional == false)  // nothing to validate with
            // keep-forever, for versioned URLs: never asks.
            clock.advance(by: 86_400 * 30)
            let kept = try await Self.launch(server, "/a.png", folder: folder, clock: clock) { $0.followsHTTPHeaders = false }
            #expect(kept.fetched.origin == .diskCache)
        }
    }

    @Test("Last-Modified only: heuristic freshness (10% of its age, at most a day), then If-Modified-Since")
    func lastModifiedOnly() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            let modified = HTTPDate.format(clock.now.addingTimeInterval(-5 * 86_400))  // 5 days old: fresh for 12 h
            server.serve("/a.png", Self.route(Self.old, lastModified: modified, [("Date", HTTPDate.format(clock.now))]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            clock.advance(by: 11 * 3_600)
            #expect(try await Self.launch(server, "/a.png", folder: folder, clock: clock).fetched.origin == .diskCache)
            clock.advance(by: 2 * 3_600)
            let next = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            #expect(next.fetched.origin == .revalidated)
            #expect(server.requests("/a.png").last?.ifModifiedSince == modified)
        }
    }

    @Test("request policies: revalidate even when fresh, stored data whatever its age, reload ignoring the cache")
    func requestPolicies() async throws {
        try await withTestServer { server in
            let folder = temporaryCacheFolder(), clock = ManualWallClock()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            _ = try await Self.launch(server, "/a.png", folder: folder, clock: clock)
            let revalidated = try await Self.launch(server, "/a.png", folder: folder, clock: clock, policy: .reloadRevalidatingCacheData)
            #expect(revalidated.fetched.origin == .revalidated)
            #expect(server.requests("/a.png").last?.isConditional == true)
            let count = server.requestCount("/a.png")
            clock.advance(by: 86_400)
            let offlineFirst = try await Self.launch(server, "/a.png", folder: folder, clock: clock, policy: .returnCacheDataElseLoad)
            #expect(offlineFirst.fetched.origin == .diskCache)
            #expect(server.requestCount("/a.png") == count)
            let reloaded = try await Self.launch(server, "/a.png", folder: folder, clock: clock, policy: .reloadIgnoringLocalCacheData)
            #expect(reloaded.fetched.origin == .loaded)
            #expect(server.requests("/a.png").last?.isConditional == false)
            #expect(ImageRequest.CachePolicy.useCache == .useProtocolCachePolicy)
            #expect(ImageRequest.CachePolicy.reloadIgnoringCache == .reloadIgnoringLocalCacheData)
        }
    }

    @Test("a 200 on revalidation drops every image decoded from the old bytes and tells observers; a 304 keeps them")
    func changeDropsEveryDecodedImage() async throws {
        try await withTestServer { server in
            let clock = ManualWallClock()
            let memory = MemoryCache()
            let (pipeline, disk) = try ImagePipeline.launched(diskCache: temporaryCacheFolder(), clock: clock, memoryCache: memory)
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60")]))
            let small = ImageRequest(url: server.url("/a.png"), targetSize: CGSize(width: 10, height: 10))
            let large = ImageRequest(url: server.url("/a.png"), targetSize: CGSize(width: 20, height: 20))
            let thumbnail = ImageRequest(url: server.url("/a.png"), targetSize: CGSize(width: 20, height: 20), processors: [.circle])
            for request in [small, large, thumbnail] { _ = try await pipeline.image(for: request) }
            await disk.waitForPendingWrites()
            let changes = PipelineCounter()
            let observation = pipeline.observeChanges(of: small) { changes.increment() }

            // Stale, unchanged: the 304 keeps every decoded image.
            clock.advance(by: 120)
            #expect(try await pipeline.fetch(small).origin == .revalidated)
            #expect([small, large, thumbnail].allSatisfy { pipeline.cache.image(for: $0) != nil })
            #expect(changes.count == 0)

            // Stale, changed: every size and processor goes, and the observer hears of it.
            clock.advance(by: 120)
            server.serve("/a.png", Self.route(Self.new, etag: "\"v2\"", [("Cache-Control", "max-age=60")]))
            #expect(try await pipeline.fetch(small).origin == .loaded)
            #expect([small, large, thumbnail].allSatisfy { pipeline.cache.image(for: $0) == nil })
            #expect(changes.count == 1)
            #expect(try await pipeline.image(for: large).sourceSize == Self.newSize)
            observation.cancel()
            #expect(pipeline.graph.changeObservers.count == 0)
        }
    }

    @Test("a stale memory image under stale-while-revalidate is returned at once and revalidated in the background")
    func staleWhileRevalidateInMemory() async throws {
        try await withTestServer { server in
            let clock = ManualWallClock()
            let (pipeline, disk) = try ImagePipeline.launched(diskCache: temporaryCacheFolder(), clock: clock, memoryCache: MemoryCache())
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", [("Cache-Control", "max-age=60, stale-while-revalidate=86400")]))
            let request = ImageRequest(url: server.url("/a.png"))
            _ = try await pipeline.image(for: request)
            await disk.waitForPendingWrites()
            var gated = Self.route(Self.new, etag: "\"v2\"", [("Cache-Control", "max-age=60")])
            gated.isGated = true
            server.serve("/a.png", gated)
            clock.advance(by: 600)
            let changed = PipelineCounter()
            let observation = pipeline.observeChanges(of: request) { changed.increment() }
            // At once, from memory, while the origin has not answered (its answer is gated).
            #expect(try await pipeline.image(for: request).bitmap.size == Self.oldSize)
            #expect(await pipelineEventually { server.requestCount("/a.png") == 2 })
            #expect(server.requests("/a.png").last?.ifNoneMatch == "\"v1\"")
            server.release("/a.png")
            #expect(await pipelineEventually { changed.count == 1 })
            #expect(try await pipeline.image(for: request).bitmap.size == Self.newSize)
            withExtendedLifetime(observation) {}
        }
    }

    @Test("a 304 from a loader that reports it as an error still renews the entry")
    func notModifiedAsError() async throws {
        let clock = ManualWallClock()
        let disk = try DataCache(directory: temporaryCacheFolder())
        let url = URL(string: "https://images.test/a.png")!
        disk.store(
            DataCacheEntry(
                data: Self.old,
                metadata: HTTPCacheMetadata(
                    headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""], requestTime: clock.now, responseTime: clock.now)),
            for: url.absoluteString)
        clock.advance(by: 600)
        var configuration = ImagePipeline.Configuration(dataLoader: NotModifiedThrowingLoader(), dataCache: disk, memoryCache: nil)
        configuration.httpCache = clock.policy()
        let fetched = try await ImagePipeline(configuration: configuration).fetch(ImageRequest(url: url))
        #expect(fetched.origin == .revalidated)
        #expect(fetched.data.count == Self.old.count)
    }
}

/// A loader that answers every request by throwing `httpStatus(304)`, as a loader that does not
/// pass 304s on would.
private struct NotModifiedThrowingLoader: DataLoading {
    func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: ImageError.httpStatus(code: 304, url: request.url)) }
    }
}
