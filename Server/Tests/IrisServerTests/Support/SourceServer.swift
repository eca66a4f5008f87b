import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A latch the tests open: waiters resume once it is open.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The source images the tests serve over loopback, with a count of requests per path, and
/// routes that misbehave on purpose.
final class SourceFiles: Sendable {
    private let files = Mutex<[String: Data]>([:])
    private let counts = Mutex<[String: Int]>([:])
    /// Opened by a test to let `/gated/*` answer.
    let gate = Latch()
    /// Each `/gated/*` request, as it arrives.
    let arrivals: AsyncStream<String>
    private let arrived: AsyncStream<String>.Continuation
    /// Kept open until the test ends: `/hang` never answers before.
    let hang = Latch()

    init() { (arrivals, arrived) = AsyncStream.makeStream() }

    subscript(name: String) -> Data? {
        get { files.withLock { $0[name] } }
        set { files.withLock { $0[name] = newValue } }
    }

    /// Requests served for `name` (every route counts).
    func count(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

    /// `/revalidated/*` requests answered `304 Not Modified`, by name.
    func notModifiedCount(_ name: String) -> Int { notModified.withLock { $0[name] ?? 0 } }
    private let notModified = Mutex<[String: Int]>([:])
    fileprivate func answeredNotModified(_ name: String) { notModified.withLock { $0[name, default: 0] += 1 } }

    fileprivate func counted(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    fileprivate func didArrive(_ name: String) { arrived.yield(name) }
}

/// Runs `body` with a live source server on 127.0.0.1 (a port of its own): `/f/<name>` serves
/// a file, `/revalidated/<name>` serves it with `no-cache` and an `ETag` of its bytes (and a 304
/// to a matching `If-None-Match`), `/gated/<name>` waits for the gate first, `/redirect?to=<url>`
/// redirects, `/hang` never answers, `/chunked/<name>` streams without a length, `/etag/<name>`
/// serves a file with the ETag `"<name>-v1"` and answers 304 to an `If-None-Match` naming it.
func withSourceServer<T: Sendable>(_ files: SourceFiles, _ body: @Sendable (_ base: String) async throws -> T) async throws -> T {
    let router = Router()
    router.get("/f/:name") { _, context -> Response in
        let name = try context.parameters.require("name")
        files.counted(name)
        guard let data = files[name] else { return Response(status: .notFound) }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    router.get("/gated/:name") { _, context -> Response in
        let name = try context.parameters.require("name")
        files.counted(name)
        files.didArrive(name)
        await files.gate.wait()
        guard let data = files[name] else { return Response(status: .notFound) }
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    router.get("/etag/:name") { request, context -> Response in
        let name = try context.parameters.require("name")
        files.counted(name)
        let etag = "\"\(name)-v1\""
        if let ifNoneMatch = request.headers[.ifNoneMatch], ifNoneMatch.contains(etag) {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        guard let data = files[name] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.eTag: etag], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    router.get("/chunked/:name") { _, context -> Response in
        let name = try context.parameters.require("name")
        files.counted(name)
        let data = files[name] ?? Data()
        return Response(
            status: .ok,
            body: ResponseBody { writer in
                var offset = 0
                while offset < data.count {
                    let end = min(data.count, offset + 65_536)
                    try await writer.write(ByteBuffer(bytes: data[offset..<end]))
                    offset = end
                }
                try await writer.finish(nil)
            })
    }
    router.get("/revalidated/:name") { request, context -> Response in
        // `Cache-Control: no-cache` with an ETag of the bytes: a cache asks before each use.
        let name = try context.parameters.require("name")
        files.counted(name)
        guard let data = files[name] else { return Response(status: .notFound) }
        let etag = "\"\(data.count)-\(data.hashValue & 0xFFFF_FFFF)\""
        var headers: HTTPFields = [.cacheControl: "no-cache", .eTag: etag]
        if request.headers[.ifNoneMatch] == etag {
            files.answeredNotModified(name)
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/octet-stream"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    router.get("/redirect") { request, _ -> Response in
        files.counted("redirect")
        let target = request.uri.queryParameters.get("to") ?? "/"
        return Response(status: .found, headers: [.location: target])
    }
    router.get("/hang") { _, _ -> Response in
        files.counted("hang")
        await files.hang.wait()
        return Response(status: .ok)
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
        defer {
            files.hang.open()
            files.gate.open()
        }
        return try await body("http://127.0.0.1:\(client.port!)")
    }
}
