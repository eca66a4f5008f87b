import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Iris
import IrisTestSupport

/// Resuming downloads with `Range` / `If-Range` (``ResumableLoad`` over a ``URLSessionDataLoader``)
/// and a loopback server that answers as real servers do.
@Suite("Resumable downloads")
struct ResumableDownloadTests {
    static let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })

    /// Loads `/file` resuming `partial`; the collected load and the validator reported.
    private func load(_ server: TestHTTPServer, resuming partial: ResumableData?) async -> (CollectedLoad, String?) {
        let store = ResumableDataStore()
        if let partial { store.keep(partial, for: server.url("/file").absoluteString) }
        let load = ResumableLoad(
            request: URLRequest(url: server.url("/file")), loader: URLSessionDataLoader(timeout: httpHangTimeout),
            store: store)
        return (await CollectedLoad.collect(load.events()), load.validator)
    }

    @Test(
        "a 206 continues the kept bytes: the body is byte-identical, the kept bytes come first, only the rest is sent",
        arguments: [0.1, 0.5, 0.9])
    func resumes(fraction: Double) async throws {
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: .bytes))
            let kept = Int(Double(Self.body.count) * fraction)
            let partial = ResumableData(data: Self.body.prefix(kept), validator: "\"v1\"", totalLength: Self.body.count)
            let (loaded, validator) = await load(server, resuming: partial)
            #expect(loaded.error == nil)
            expectSameBytes(loaded.body, Self.body)
            #expect(loaded.expectedLength == Self.body.count)
            #expect(loaded.chunks.first?.count == kept)  // progress continues from N
            #expect(validator == "\"v1\"")
            #expect(server.requests("/file").map(\.rangeStart) == [kept])
            #expect(server.requests("/file").map(\.ifRange) == ["\"v1\""])
        }
    }

    @Test("the server ignores the range, or the resource changed: the whole new body, in one request")
    func startsOverOn200() async throws {
        try await withTestServer { server in
            let partial = ResumableData(data: Self.body.prefix(5000), validator: "\"v1\"", totalLength: Self.body.count)
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: .advertisedButIgnored))
            let (ignored, _) = await load(server, resuming: partial)
            expectSameBytes(ignored.body, Self.body)
            #expect(ignored.status == 200)

            let changed = Data(Self.body.reversed())
            server.serve("/file", TestHTTPRoute(body: changed, etag: "\"v2\"", ranges: .bytes))
            let (fresh, validator) = await load(server, resuming: partial)
            expectSameBytes(fresh.body, changed)
            #expect(fresh.status == 200)
            #expect(validator == "\"v2\"")
            #expect(server.requests("/file").count == 2)
        }
    }

    @Test(
        "416 or a Content-Range that does not continue the kept bytes: starts again without a range",
        arguments: [TestHTTPRoute.RangeSupport.unsatisfiable, .wrongContentRange])
    func restarts(ranges: TestHTTPRoute.RangeSupport) async throws {
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: ranges))
            let partial = ResumableData(data: Self.body.prefix(5000), validator: "\"v1\"", totalLength: Self.body.count)
            let (loaded, _) = await load(server, resuming: partial)
            #expect(loaded.error == nil)
            expectSameBytes(loaded.body, Self.body)
            #expect(server.requests("/file").map(\.rangeStart) == [5000, nil])
        }
    }

    @Test("a 206 cut short fails as a lost connection, never as a shorter body")
    func truncated206() async throws {
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: Self.body, dropAfterBytes: 10_000, etag: "\"v1\"", ranges: .bytes))
            let partial = ResumableData(data: Self.body.prefix(50_000), validator: "\"v1\"", totalLength: Self.body.count)
            let (loaded, _) = await load(server, resuming: partial)
            guard case .network(let reason, _, _)? = loaded.imageError else {
                Issue.record("a cut 206 gave \(String(describing: loaded.error))")
                return
            }
            #expect(reason.contains("connection lost after 60,000 of 200,000 bytes"), "\(reason)")
        }
    }

    @Test("validators: a strong ETag, else Last-Modified, and only with Accept-Ranges: bytes")
    func validators() async throws {
        try await withTestServer { server in
            let cases: [(TestHTTPRoute, String?)] = [
                (TestHTTPRoute(body: Self.body, etag: "\"a\"", lastModified: "Mon, 23 Nov 2026 10:00:00 GMT", ranges: .bytes), "\"a\""),
                (
                    TestHTTPRoute(body: Self.body, etag: "W/\"a\"", lastModified: "Mon, 23 Nov 2026 10:00:00 GMT", ranges: .bytes),
                    "Mon, 23 Nov 2026 10:00:00 GMT"
                ),
                (TestHTTPRoute(body: Self.body, etag: "W/\"a\"", ranges: .bytes), nil),
                (TestHTTPRoute(body: Self.body, etag: "\"a\""), nil),
            ]
            for (route, expected) in cases {
                server.serve("/file", route)
                let (loaded, validator) = await load(server, resuming: nil)
                expectSameBytes(loaded.body, Self.body)
                #expect(validator == expected)
            }
        }
    }

    @Test("the store keeps partial downloads within its byte budget, least recently kept out first")
    func storeBudget() {
        let store = ResumableDataStore(byteLimit: 1000)
        func partial(_ count: Int) -> ResumableData { ResumableData(data: Data(count: count), validator: "\"v\"") }
        store.keep(partial(400), for: "a")
        store.keep(partial(400), for: "b")
        store.keep(partial(400), for: "c")  // a goes
        #expect(store.keys == ["b", "c"] && store.byteCount == 800)
        store.keep(partial(100), for: "b")  // replaces b, now the newest
        #expect(store.keys == ["c", "b"] && store.byteCount == 500)
        store.keep(partial(2000), for: "huge")  // over the whole budget: not kept
        #expect(store.keys == ["c", "b"])
        #expect(store.take(for: "c")?.data.count == 400)
        #expect(store.take(for: "c") == nil)
        #expect(store.byteCount == 100)
    }
}
