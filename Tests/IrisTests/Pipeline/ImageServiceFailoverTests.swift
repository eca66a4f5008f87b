import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// What goes to an image service and what happens when it is down, hung or refuses: a loopback
/// server plays the service (imgproxy paths) and the origin, and the service's time runs on a
/// virtual clock the test moves.
@Suite("Image service failover")
struct ImageServiceFailoverTests {
    static let target = DecodeTarget(size: PixelSize(width: 100, height: 100), contentMode: .fit)

    static func pipeline(
        _ service: any ImageService, clock: VirtualClock = VirtualClock(), dataCache: DataCache? = nil
    ) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = URLSessionDataLoader(timeout: httpHangTimeout)
            $0.imageService = service
            $0.imageServiceFailover = ImageServiceFailover(timeout: .seconds(5), coolOff: .seconds(30), clock: clock)
            $0.dataCache = dataCache
        }
    }

    static func request(_ url: URL) -> ImageRequest {
        ImageRequest(url: url, targetSize: CGSize(width: 100, height: 100))
    }

    static func servicePath(_ service: ImgproxyService, _ source: URL, signature: String = "insecure") -> String {
        "/" + signature + service.path(for: source, rendition: service.rendition(for: target))
    }

    static func jpeg(seed: UInt64) throws -> Data {
        try TestImages.jpeg(width: 320, height: 240, seed: seed)
    }

    @Test("videos never go to the service; animations only to one that keeps them moving; stills do")
    func whatGoesToTheService() {
        func sends(_ path: String, keepsAnimations: Bool = false) -> Bool {
            ServiceRouting.sendsToService(URL(string: "https://cdn.example.com/" + path)!, keepsAnimations: keepsAnimations)
        }
        #expect(!sends("clip.mp4") && !sends("Clip.MOV") && !sends("a.m4v", keepsAnimations: true) && !sends("a.webm"))
        #expect(!sends("sticker.gif") && sends("sticker.gif", keepsAnimations: true) && !sends("a.apng"))
        #expect(sends("photo.jpg") && sends("photo") && sends("photo.webp"))
        #expect(ImgproxyService(baseURL: URL(string: "https://img.example.com")!).keepsAnimations)
    }

    #if os(Linux)
    @Test(
        "an MP4 in a grid over a service loads from its origin and decodes as a video",
        .enabled(if: CodecTools.hasFFmpeg, CodecTools.missingFFmpeg))
    func videoFromTheOrigin() async throws {
        let clip = try await VideoClips.shared.data(.h264MP4)
        try await withTestServer { server in
            let source = server.url("/clips/loop.mp4")
            server.serve("/clips/loop.mp4", data: clip, contentType: "video/mp4")
            let service = ImgproxyService(baseURL: server.url("/"))
            let servicePath = Self.servicePath(service, source)
            server.serve(servicePath, .error(415))
            let image = try await Self.pipeline(service).image(for: Self.request(source))
            #expect(image.video != nil)
            #expect(image.rendition == nil)
            #expect(server.requestCount(servicePath) == 0)
            #expect(server.requestCount("/clips/loop.mp4") == 1)
        }
    }
    #endif

    @Test("a 415 (a source the service cannot take) loads the original, and the service stays up")
    func unsupportedSourceFallsBack() async throws {
        let photo = try Self.jpeg(seed: 1)
        try await withTestServer { server in
            let service = ImgproxyService(baseURL: server.url("/"))
            let pipeline = Self.pipeline(service)
            let odd = server.url("/media/odd"), next = server.url("/media/next.jpg")
            server.serve("/media/odd", data: photo, contentType: "image/jpeg")
            server.serve(Self.servicePath(service, odd), .error(415))
            // The fetch's result says why the original was loaded.
            let fetched = try await pipeline.fetch(Self.request(odd))
            #expect(
                fetched.serviceFallback
                    == .httpStatus(code: 415, url: try await service.url(for: odd, rendition: service.rendition(for: Self.target))))
            #expect(fetched.rendition == nil && fetched.data.count == photo.count)
            #expect(server.requestCount("/media/odd") == 1)
            server.serve(Self.servicePath(service, next), data: photo, contentType: "image/jpeg")
            let served = try await pipeline.image(for: Self.request(next))
            #expect(served.rendition != nil && server.requestCount(Self.servicePath(service, next)) == 1)
        }
    }

    @Test("a hung service: the original after the timeout; skipped during the cool-off; probed after it")
    func hungServiceCoolsOff() async throws {
        let photo = try Self.jpeg(seed: 2)
        try await withTestServer { server in
            let clock = VirtualClock()
            let service = ImgproxyService(baseURL: server.url("/"))
            let pipeline = Self.pipeline(service, clock: clock)
            let sources = (0..<3).map { server.url("/o/\($0).jpg") }
            for (index, source) in sources.enumerated() {
                server.serve("/o/\(index).jpg", data: photo, contentType: "image/jpeg")
                server.serve(Self.servicePath(service, source), TestHTTPRoute(body: photo, contentType: "image/jpeg", isGated: true))
            }
            defer { for source in sources { server.release(Self.servicePath(service, source)) } }

            let first = Task { try await pipeline.fetch(Self.request(sources[0])) }
            // The service has the request and the deadline is set: five seconds pass.
            #expect(await pipelineEventually { server.requestCount(Self.servicePath(service, sources[0])) == 1 && clock.sleeperCount == 1 })
            clock.advance(by: .seconds(5))
            let fallen = try await first.value
            guard case .network(let reason, _, _) = fallen.serviceFallback else {
                Issue.record("not a timeout: \(String(describing: fallen.serviceFallback))")
                return
            }
            #expect(reason.contains("did not answer"))
            #expect(server.requestCount("/o/0.jpg") == 1)

            // Within the cool-off the next image goes to its original at once.
            clock.advance(by: .seconds(29))
            let skipped = try await pipeline.fetch(Self.request(sources[1]))
            #expect(skipped.serviceFallback != nil && skipped.rendition == nil)
            #expect(server.requestCount(Self.servicePath(service, sources[1])) == 0)
            #expect(server.requestCount("/o/1.jpg") == 1)

            // After it, one request asks the service again, which answers now.
            clock.advance(by: .seconds(1))
            server.release(Self.servicePath(service, sources[2]))
            let probed = try await pipeline.image(for: Self.request(sources[2]))
            #expect(probed.rendition != nil)
            #expect(server.requestCount(Self.servicePath(service, sources[2])) == 1)
            #expect(server.requestCount("/o/2.jpg") == 0)
        }
    }

    @Test("a fallback reads the original from the disk cache: a second fallback of a source downloads nothing")
    func fallbackUsesTheCachedOriginal() async throws {
        let photo = try Self.jpeg(seed: 3)
        try await withTestServer { server in
            let service = ImgproxyService(baseURL: server.url("/"))
            let cache = try DataCache(directory: temporaryCacheFolder("service-fallback"))
            let pipeline = Self.pipeline(service, dataCache: cache)
            let source = server.url("/o/a.jpg")
            server.serve("/o/a.jpg", TestHTTPRoute(body: photo, contentType: "image/jpeg", headers: [("Cache-Control", "max-age=3600")]))
            server.serve(Self.servicePath(service, source), .error(503))
            let first = try await pipeline.image(for: Self.request(source))
            #expect(first.rendition == nil)
            // Another size of the same source (another rendition, not in memory), the service cooling off.
            let larger = try await pipeline.image(for: ImageRequest(url: source, targetSize: CGSize(width: 300, height: 300)))
            #expect(larger.rendition == nil)
            #expect(larger.bitmap.width > first.bitmap.width)
            #expect(server.requestCount("/o/a.jpg") == 1)
            // A request that ignores cached data loads the original again.
            var reload = ImageRequest(url: source, targetSize: CGSize(width: 200, height: 200))
            reload.cachePolicy = .reloadIgnoringLocalCacheData
            _ = try await pipeline.image(for: reload)
            #expect(server.requestCount("/o/a.jpg") == 2)
        }
    }

    @Test("a signer that throws fails the load with its error (no original fetched in silence), and is not asked again during the cool-off")
    func throwingSigner() async throws {
        struct BackendDown: Error {}
        let photo = try Self.jpeg(seed: 4)
        let calls = PipelineCounter()
        try await withTestServer { server in
            let clock = VirtualClock()
            let service = ImgproxyService(
                baseURL: server.url("/"),
                signing: .signer { _ in
                    calls.increment()
                    throw BackendDown()
                })
            let pipeline = Self.pipeline(service, clock: clock)
            for name in ["a", "b", "c"] { server.serve("/o/\(name).jpg", data: photo, contentType: "image/jpeg") }
            let error = await thrownImageError { _ = try await pipeline.image(for: Self.request(server.url("/o/a.jpg"))) }
            guard case .dataLoadingFailed(let reason, _) = error else {
                Issue.record("not a typed signer failure: \(String(describing: error))")
                return
            }
            #expect(reason.contains("could not be made") && reason.contains("BackendDown"))
            // The next image of the burst fails with the same error, the signer not asked.
            let burst = await thrownImageError { _ = try await pipeline.image(for: Self.request(server.url("/o/b.jpg"))) }
            #expect(burst == error && calls.count == 1)
            // After the cool-off the signer is asked again.
            clock.advance(by: .seconds(30))
            _ = await thrownImageError { _ = try await pipeline.image(for: Self.request(server.url("/o/c.jpg"))) }
            #expect(calls.count == 2)
            #expect(["a", "b", "c"].allSatisfy { server.requestCount("/o/\($0).jpg") == 0 })
        }
    }

    @Test("a 403 (a rotated key): the signatures are forgotten and the path signed again once; the new one is used")
    func refusedSignatureIsRenewed() async throws {
        let photo = try Self.jpeg(seed: 5)
        let key = LockedState("old")
        let calls = PipelineCounter()
        try await withTestServer { server in
            let service = ImgproxyService(
                baseURL: server.url("/"),
                signing: .signer { _ in
                    calls.increment()
                    return key.withLock { $0 }
                })
            let pipeline = Self.pipeline(service)
            let source = server.url("/o/a.jpg"), other = server.url("/o/b.jpg")
            server.serve("/o/a.jpg", data: photo, contentType: "image/jpeg")
            let old = Self.servicePath(service, source, signature: "old"), new = Self.servicePath(service, source, signature: "new")
            server.serve(new, data: photo, contentType: "image/jpeg")  // the old path is unknown: 404
            server.serve(old, .error(403))
            _ = try await service.url(for: source, rendition: service.rendition(for: Self.target))  // signed and kept with the old key
            key.withLock { $0 = "new" }  // the backend rotated its key
            let image = try await pipeline.image(for: Self.request(source))
            #expect(image.rendition != nil)
            #expect(server.requestCount(old) == 1 && server.requestCount(new) == 1)
            #expect(calls.count == 2)
            #expect(server.requestCount("/o/a.jpg") == 0)
            // Still refused after signing again: the original, and the service cools off.
            let otherOld = Self.servicePath(service, other, signature: "new")
            server.serve(otherOld, .error(403))
            server.serve("/o/b.jpg", data: photo, contentType: "image/jpeg")
            let refused = try await pipeline.fetch(Self.request(other))
            #expect(refused.serviceFallback == .httpStatus(code: 403, url: server.url(otherOld)) && refused.rendition == nil)
            #expect(server.requestCount(otherOld) == 1)
        }
    }

    @Test("the signature cache keeps at most its capacity, the most recently used")
    func signatureCacheIsBounded() async throws {
        let cache = SignatureCache()
        _ = try await cache.signature(for: "/kept") { "sig" + $0 }
        for index in 0..<(SignatureCache.capacity + 200) {
            _ = try await cache.signature(for: "/p\(index)") { "sig" + $0 }
            if index % 100 == 0 { _ = try await cache.signature(for: "/kept") { _ in "other" } }
        }
        #expect(cache.count <= SignatureCache.capacity)
        let kept = try await cache.signature(for: "/kept") { _ in "asked again" }
        #expect(kept == "sig/kept")
        cache.removeAll()
        #expect(cache.count == 0)
    }
}
