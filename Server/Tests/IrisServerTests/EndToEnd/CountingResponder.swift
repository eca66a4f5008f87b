import Foundation
import Hummingbird
import Synchronization

/// Counts what a service answers at the service itself: the paths asked for and the body bytes
/// sent (from each response's `Content-Length`), around another responder.
struct CountingResponder<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner
    let counts: ServiceCounts

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        let response = try await inner.respond(to: request, context: context)
        counts.record(
            path: request.uri.path, status: response.status.code,
            bytes: response.headers[.contentLength].flatMap { Int($0) } ?? 0)
        return response
    }
}

/// What a ``CountingResponder`` saw.
final class ServiceCounts: Sendable {
    struct Tally: Sendable {
        var requests: [String: Int] = [:]
        var statuses: [Int: Int] = [:]
        var bytes = 0
    }

    private let state = Mutex(Tally())

    var tally: Tally { state.withLock { $0 } }

    func record(path: String, status: Int, bytes: Int) {
        state.withLock {
            $0.requests[path, default: 0] += 1
            $0.statuses[status, default: 0] += 1
            $0.bytes += bytes
        }
    }
}
