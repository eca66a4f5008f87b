import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Iris
import IrisTestSupport

/// ``URLSessionDataLoader`` checks the first bytes of a body for HTML or JSON, but a `206`'s
/// body does not start the resource: its first bytes may be any part of it.
@Suite("Range responses are not sniffed")
struct RangeResponseSniffTests {
    @Test("a resumed body whose rest starts like JSON or HTML loads whole", arguments: ["{\"frames\": [1, 2, 3]", "<html><head>"])
    func restLooksLikeText(text: String) async throws {
        // Binary bytes, then at `cut` text long enough for the sniffer to judge, then binary again.
        let cut = 5000
        var body = Data((0..<cut).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) })
        body.append(Data(String(repeating: text + " ", count: 8).utf8))
        body.append(Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }))
        try await withTestServer { server in
            server.serve("/file", TestHTTPRoute(body: body, etag: "\"v1\"", ranges: .bytes))
            let url = server.url("/file")
            let store = ResumableDataStore()
            store.keep(ResumableData(data: body.prefix(cut), validator: "\"v1\"", totalLength: body.count), for: url.absoluteString)
            let load = ResumableLoad(request: URLRequest(url: url), loader: URLSessionDataLoader(timeout: httpHangTimeout), store: store)
            let loaded = await CollectedLoad.collect(load.events())
            #expect(loaded.error == nil, "\(String(describing: loaded.error))")
            #expect(loaded.status == 206)
            expectSameBytes(loaded.body, body)
            #expect(server.requests("/file").map(\.rangeStart) == [cut])

            // The same bytes at the start of a whole body are still refused.
            server.serve("/text", TestHTTPRoute(body: body.dropFirst(cut)))
            let whole = await CollectedLoad.collect(
                URLSessionDataLoader(timeout: httpHangTimeout).loadData(for: URLRequest(url: server.url("/text"))))
            #expect(whole.imageError == .notAnImage(text.hasPrefix("{") ? .json : .html, url: server.url("/text")))
        }
    }
}
