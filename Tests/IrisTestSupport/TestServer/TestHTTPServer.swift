import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1 for tests and benchmarks of the network path.
///
/// Register routes with ``serve(_:_:)`` (or ``serve(_:data:contentType:)``), then point a
/// loader at ``url(_:)``. Routes can delay, trickle their body, send it in pieces the test
/// releases one by one, drop the connection half way, send a body without end, stall mid-body,
/// announce a wrong `Content-Length` or none, answer with any status, or wait for
/// ``release(_:)``. The server logs every request and counts
/// those the client abandoned before the response was complete. Unknown paths get 404. Every
/// response closes its connection.
public final class TestHTTPServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let state = TestHTTPServerState()
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)

    /// Makes a stopped server; call ``start()``.
    public init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Binds a random free port on 127.0.0.1 and starts accepting connections.
    public func start() async throws {
        let state = self.state
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestHTTPConnectionHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        self.channel.withLockedValue { $0 = channel }
    }

    /// Stops accepting connections, lets held (gated) responses go and stops the event loop.
    public func shutdown() async throws {
        state.shutDown()
        let channel = self.channel.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
        try await channel?.close()
        try await group.shutdownGracefully()
    }

    /// The port the server listens on. Only valid after ``start()``.
    public var port: Int {
        guard let port = channel.withLockedValue({ $0?.localAddress?.port }) else {
            preconditionFailure("TestHTTPServer.port read before start()")
        }
        return port
    }

    /// `http://127.0.0.1:<port><path>`; `path` starts with "/".
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Answers `path` as `route` says (replacing an earlier route).
    public func serve(_ path: String, _ route: TestHTTPRoute) {
        state.setRoute(route, for: path)
    }

    /// Answers `path` with 200 and `data`.
    public func serve(_ path: String, data: Data, contentType: String = "application/octet-stream") {
        serve(path, TestHTTPRoute(body: data, contentType: contentType))
    }

    /// Lets the held responses of a gated `path` go, and every later one at once.
    public func release(_ path: String) {
        state.open(path)
    }

    /// Lets pieces 1 through `index` of `path`'s body go (a route with
    /// ``TestHTTPRoute/piecesOnRelease``), for this response and later ones.
    public func releasePieces(_ path: String, through index: Int) {
        guard index >= 1 else { return }
        for piece in 1...index { state.open(TestHTTPServerState.pieceGate(path, piece)) }
    }

    /// Requests received for `path`.
    public func requestCount(_ path: String) -> Int {
        state.log.lazy.filter { $0.path == path }.count
    }

    /// Requests received, all paths.
    public var totalRequestCount: Int { state.log.count }

    /// The paths of all requests, in the order they arrived.
    public var requestLog: [String] { state.log.map(\.path) }

    /// The requests for `path` with their range headers, in the order they arrived.
    public func requests(_ path: String) -> [TestHTTPRequest] { state.log.filter { $0.path == path } }

    /// Requests whose connection the client closed before the response was complete.
    public var cancelledRequestCount: Int { state.cancelledLog.count }

    /// Cancelled requests for `path`.
    public func cancelledRequestCount(_ path: String) -> Int {
        state.cancelledLog.lazy.filter { $0 == path }.count
    }
}
