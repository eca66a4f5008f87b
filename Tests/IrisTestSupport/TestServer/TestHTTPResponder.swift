import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Writes one route's response to a channel: gate, delay, trickle (after a pause or on the
/// test's release), drop, stream forever or stall as the route says.
final class TestHTTPResponder: Sendable {
    private enum Progress { case writing, complete, droppedByServer }

    private let route: TestHTTPRoute
    private let request: TestHTTPRequest
    private let path: String
    private let channel: any Channel
    private let state: TestHTTPServerState
    private let progress = NIOLockedValueBox(Progress.writing)

    init(route: TestHTTPRoute, request: TestHTTPRequest, channel: any Channel, state: TestHTTPServerState) {
        self.route = route
        self.request = request
        self.path = request.path
        self.channel = channel
        self.state = state
    }

    /// Whether the connection closed while the response was still being written by us, i.e.
    /// the client went away first.
    func endedEarly() -> Bool {
        progress.withLockedValue { $0 == .writing }
    }

    private func markComplete() { progress.withLockedValue { $0 = .complete } }

    /// Sends the response, then closes the connection.
    func respond() async {
        if route.isGated { await state.waitForGate(path) }
        if route.delay > .zero { try? await Task.sleep(for: route.delay) }
        guard !Task.isCancelled else { return }
        let plan = TestHTTPResponsePlan(route: route, request: request)
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: plan.status),
            headers: HTTPHeaders(plan.headers))
        do {
            try await channel.writeAndFlush(HTTPServerResponsePart.head(head))
            var body = plan.body[...]
            if let limit = route.dropAfterBytes {
                body = body.prefix(limit)
            }
            let size = max(1, route.chunkSize ?? body.count)
            var sentPieces = 0
            while !body.isEmpty {
                let piece = body.prefix(size)
                body = body.dropFirst(piece.count)
                // Complete before the last write: the client may close as soon as it has the body.
                if body.isEmpty && route.dropAfterBytes == nil && route.bodyEnd == .complete { markComplete() }
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: piece))))
                sentPieces += 1
                if route.chunkSize != nil, !body.isEmpty {
                    if route.piecesOnRelease {
                        await state.waitForGate(TestHTTPServerState.pieceGate(path, sentPieces))
                        try Task.checkCancellation()
                    } else {
                        try await Task.sleep(for: route.chunkPause)
                    }
                }
            }
            if route.dropAfterBytes != nil {
                progress.withLockedValue { $0 = .droppedByServer }
                try await channel.close()
                return
            }
            switch route.bodyEnd {
            case .complete:
                break
            case .endless(let chunkSize):
                // Until the client goes away: then the write fails or the task is cancelled.
                let filler = ByteBuffer(repeating: 0x5A, count: max(1, chunkSize))
                while !Task.isCancelled {
                    try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(filler)))
                }
                return
            case .stall:
                // Silence, with the connection open, until the client (or shutdown) closes it.
                while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
                return
            }
            markComplete()
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
            try await channel.close()
        } catch {
            // The client went away or the task was cancelled; the handler counts it.
        }
    }
}
