import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Reads one request per connection, answers it on a task (on ``TestHTTPExecutor``, off the
/// cooperative pool) with a ``TestHTTPResponder`` and
/// counts a request as cancelled when the client closes before the response is complete.
final class TestHTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: TestHTTPServerState
    private var request: TestHTTPRequest?
    private var responder: TestHTTPResponder?
    private var task: Task<Void, Never>?

    init(state: TestHTTPServerState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = TestHTTPRequest(
                path: String(head.uri.split(separator: "?", maxSplits: 1).first ?? ""),
                range: head.headers.first(name: "Range"),
                ifRange: head.headers.first(name: "If-Range"),
                ifNoneMatch: head.headers.first(name: "If-None-Match"),
                ifModifiedSince: head.headers.first(name: "If-Modified-Since"))
        case .body:
            break
        case .end:
            guard let request, responder == nil else { return }
            let route =
                state.received(request)
                ?? TestHTTPRoute(status: 404, body: Data("no route for \(request.path)\n".utf8), contentType: "text/plain")
            let responder = TestHTTPResponder(route: route, request: request, channel: context.channel, state: state)
            self.responder = responder
            task = Task(executorPreference: TestHTTPExecutor.shared) { await responder.respond() }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        task?.cancel()
        if let responder, let request, responder.endedEarly() {
            state.cancelled(request.path)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
