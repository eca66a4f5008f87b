import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Iris
import IrisTestSupport

/// ``URLSessionDataLoader`` against a real HTTP server on loopback.
@Suite("URLSessionDataLoader")
struct DataLoaderTests {
    @Test("streams the response with its expected length, then the body")
    func streamsResponseAndChunks() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/photo.png", data: png, contentType: "image/png")
            let load = await CollectedLoad.collect(
                URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: server.url("/photo.png"))))
            #expect(load.error == nil)
            #expect(load.responseCount == 1)
            #expect(load.status == 200)
            #expect(load.expectedLength == png.count)
            #expect(load.mimeType == "image/png")
            expectSameBytes(load.body, png)
            #expect(server.requestCount("/photo.png") == 1)
        }
    }

    @Test("a body sent in pieces arrives in as many chunks, each passed on as it comes")
    func trickledBodyArrivesInPieces() async throws {
        let jpeg = try HTTPTestImages.jpeg()
        let size = jpeg.count / 6 + 1
        try await withTestServer { server in
            // Each piece goes out only once the one before has arrived, so none can merge.
            server.serve("/slow.jpg", .inPieces(body: jpeg, pieceSize: size, contentType: "image/jpeg"))
            var released = 0
            let stream = URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: server.url("/slow.jpg")))
            let load = await CollectedLoad.collect(stream) { load in
                let arrived = load.receivedCount / size
                if arrived > released {
                    released = arrived
                    server.releasePieces("/slow.jpg", through: arrived)
                }
            }
            #expect(load.error == nil)
            expectSameBytes(load.body, jpeg)
            #expect(load.chunks.count >= 6, "got \(load.chunks.count) chunks")
        }
    }

    @Test("a status outside 2xx fails with .httpStatus and no body", arguments: [404, 500])
    func httpStatusFails(code: Int) async throws {
        try await withTestServer { server in
            server.serve("/status", .error(code))
            let url = server.url("/status")
            let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: url)))
            #expect(load.imageError == .httpStatus(code: code, url: url))
            #expect(load.chunks.isEmpty)
        }
    }

    @Test("an HTML page or JSON sent with 200 fails with .notAnImage")
    func htmlIsNotAnImage() async throws {
        try await withTestServer { server in
            server.serve("/portal", .htmlPage())
            server.serve(
                "/api", data: Data(#"{"error": "no such image", "code": 17, "detail": "try again later please"}"#.utf8),
                contentType: "application/json")
            let loader = URLSessionDataLoader(timeout: httpHangTimeout)
            let html = await CollectedLoad.collect(loader.loadData(for: URLRequest(url: server.url("/portal"))))
            #expect(html.imageError == .notAnImage(.html, url: server.url("/portal")))
            #expect(html.chunks.isEmpty)
            let json = await CollectedLoad.collect(loader.loadData(for: URLRequest(url: server.url("/api"))))
            #expect(json.imageError == .notAnImage(.json, url: server.url("/api")))
            // Shorter than the bytes held back for sniffing: checked when the body ends.
            server.serve("/tiny", TestHTTPRoute(body: Data("<html>gone</html>".utf8), contentType: "text/html"))
            let tiny = await CollectedLoad.collect(loader.loadData(for: URLRequest(url: server.url("/tiny"))))
            #expect(tiny.imageError == .notAnImage(.html, url: server.url("/tiny")))
        }
    }

    @Test("a connection closed before Content-Length fails with .network saying how much arrived")
    func droppedConnection() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/cut.png", TestHTTPRoute(body: png, contentType: "image/png", dropAfterBytes: 1000))
            let url = server.url("/cut.png")
            let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: url)))
            let expected = ImageError.network(reason: "connection lost after 1,000 of \(png.count.grouped) bytes", url: url)
            #expect(load.imageError?.withoutCause == expected, "\(String(describing: load.error))")
        }
    }

    @Test("a refused connection fails with .network and a readable reason")
    func connectionRefused() async throws {
        // A port bound but never listened on refuses every connection, and stays ours while the
        // socket is open (a port whose server just stopped could be taken by a parallel test).
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0, "could not make a socket")
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            Issue.record("could not bind a loopback port")
            return
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/photo.png"))
        let load = await CollectedLoad.collect(URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: url)))
        guard case .network(let reason, url, _) = load.imageError else {
            Issue.record("expected a network error, got \(String(describing: load.error))")
            return
        }
        #expect(reason.lowercased().contains("connect"), "\(reason)")
    }

    @Test("a default configuration loads through URLSessionDataLoader")
    func defaultLoader() {
        #expect(ImagePipeline.Configuration().dataLoader is URLSessionDataLoader)
    }

    @Test("a server slower than the timeout fails with .network; one within it loads")
    func timeout() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            // Both responses are held until the test releases them; the loader's time is a
            // virtual clock that moves only when the test says.
            server.serve("/late.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            server.serve("/in-time.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let clock = VirtualClock()
            let loader = URLSessionDataLoader(timeout: 1, clock: clock)

            let inTime = loader.loadData(for: URLRequest(url: server.url("/in-time.png")))
            let inTimeLoad = Task { await CollectedLoad.collect(inTime) }
            #expect(await pipelineEventually { server.requestCount("/in-time.png") == 1 })
            clock.advance(by: .milliseconds(999))
            server.release("/in-time.png")
            let loaded = await inTimeLoad.value
            #expect(loaded.error == nil)
            expectSameBytes(loaded.body, png)

            let late = loader.loadData(for: URLRequest(url: server.url("/late.png")))
            let lateLoad = Task { await CollectedLoad.collect(late) }
            #expect(await pipelineEventually { server.requestCount("/late.png") == 1 })
            clock.advance(by: .seconds(1))
            let load = await lateLoad.value
            guard case .network(let reason, let url, _) = load.imageError else {
                Issue.record("expected a network error, got \(String(describing: load.error))")
                return
            }
            #expect(url == server.url("/late.png"))
            #expect(reason == "timed out waiting for the server (1 s)")
            #expect(load.imageError?.urlErrorCode == .timedOut)
        }
    }

    @Test("a timeout over URLRequest's default 60 s holds for a plain request; a request's own shorter interval still counts")
    func longTimeoutIsNotCutByTheDefaultInterval() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/held.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            server.serve("/own.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let clock = VirtualClock()
            let loader = URLSessionDataLoader(timeout: 120, clock: clock)
            let held = Task { await CollectedLoad.collect(loader.loadData(for: URLRequest(url: server.url("/held.png")))) }
            var own = URLRequest(url: server.url("/own.png"))
            own.timeoutInterval = 30
            let ownLoad = Task { await CollectedLoad.collect(loader.loadData(for: own)) }
            #expect(await pipelineEventually { server.requestCount("/held.png") == 1 && server.requestCount("/own.png") == 1 })

            // 90 s without a byte: past the request's own 30 s and URLRequest's default 60 s,
            // within the loader's 120 s.
            clock.advance(by: .seconds(90))
            let timedOut = await ownLoad.value
            guard case .network(let reason, _, _) = timedOut.imageError else {
                Issue.record("expected a network error, got \(String(describing: timedOut.error))")
                return
            }
            #expect(reason == "timed out waiting for the server (30 s)")
            server.release("/held.png")
            let loaded = await held.value
            #expect(loaded.error == nil)
            expectSameBytes(loaded.body, png)
        }
    }

    @Test("cancelling the consuming task cancels the request")
    func cancellationClosesTheConnection() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/held.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let loader = URLSessionDataLoader(timeout: httpHangTimeout)
            let url = server.url("/held.png")
            let consumer = Task { await CollectedLoad.collect(loader.loadData(for: URLRequest(url: url))) }
            #expect(await pipelineEventually { server.requestCount("/held.png") == 1 })
            consumer.cancel()
            let load = await consumer.value
            #expect(load.chunks.isEmpty)
            #expect(await pipelineEventually { server.cancelledRequestCount("/held.png") == 1 })
        }
    }
}
