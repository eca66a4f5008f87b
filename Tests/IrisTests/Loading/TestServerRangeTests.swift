import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Iris
import IrisTestSupport

/// The loopback server answers `Range` / `If-Range` as real servers do, so resumable downloads
/// can be tested against it.
@Suite("Test server ranges")
struct TestServerRangeTests {
    static let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    private func load(_ server: TestHTTPServer, range: String?, ifRange: String?) async -> CollectedLoad {
        var request = URLRequest(url: server.url("/file"))
        request.setValue(range, forHTTPHeaderField: "Range")
        request.setValue(ifRange, forHTTPHeaderField: "If-Range")
        return await CollectedLoad.collect(URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: request))
    }

    @Test("a matching If-Range gets 206 and the rest; another validator gets 200 and the whole body")
    func partialContent() async throws {
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: .bytes))
            let rest = await load(server, range: "bytes=1000-", ifRange: "\"v1\"")
            #expect(rest.status == 206, "\(String(describing: rest.error))")
            expectSameBytes(rest.body, Self.body.suffix(from: 1000))
            let whole = await load(server, range: "bytes=1000-", ifRange: "\"v0\"")
            #expect(whole.status == 200)
            expectSameBytes(whole.body, Self.body)
            #expect(server.requests("/file").map(\.rangeStart) == [1000, 1000])
            #expect(server.requests("/file").map(\.ifRange) == ["\"v1\"", "\"v0\""])
        }
    }

    @Test("ignored ranges give 200; unsatisfiable ones 416")
    func ignoredAndUnsatisfiable() async throws {
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: .advertisedButIgnored))
            let ignored = await load(server, range: "bytes=1000-", ifRange: "\"v1\"")
            #expect(ignored.status == 200)
            expectSameBytes(ignored.body, Self.body)
            server.serve("/file", TestHTTPRoute(body: Self.body, etag: "\"v1\"", ranges: .unsatisfiable))
            let refused = await load(server, range: "bytes=1000-", ifRange: "\"v1\"")
            #expect(refused.imageError == .httpStatus(code: 416, url: server.url("/file")))
        }
    }
}
