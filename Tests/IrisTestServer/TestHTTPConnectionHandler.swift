import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Reads one request per connection, answers it on a task with a ``TestHTTPResponder`` and
/// counts a request as cancelled when the client closes before the response is complete.
final class TestHTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: TestHTTPServerState
    private var path: String?
    private var responder: TestHTTPResponder?
    private var task: Task<Void, Never>?

    init(state: TestHTTPServerState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        case .body:
            break
        case .end:
            guard let path, responder == nil else { return }
            let route = state.received(path)
                ?? TestHTTPRoute(status: 404, body: Data("no route for \(path)\n".utf8), contentType: "text/plain")
            let responder = TestHTTPResponder(route: route, path: path, channel: context.channel, state: state)
            self.responder = responder
            task = Task { await responder.respond() }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        task?.cancel()
        if let responder, let path, responder.endedEarly() {
            state.cancelled(path)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
