import Foundation
import Hummingbird
import HummingbirdCore
import IrisServerCore
import Logging
import NIOCore
import ServiceLifecycle

/// The image service as a Hummingbird application: `GET /health`, in development mode the
/// playground under `/playground`, and every other `GET` (and `HEAD`) path an imgproxy URL
/// rendered by an ``ImageRenderer``, answered by the image routes' steps (`ImageRoutes`);
/// `/metrics` on a listener of its own. Every route is behind the request log
/// (`RequestLogMiddleware`) and the security headers (`SecurityHeadersMiddleware`).
public enum IrisServerApplication {
    /// The router of the service over `renderer` (for tests with Hummingbird's test client, and
    /// for ``make(configuration:renderer:drain:logger:)``). `/health` answers 503 once `drain`
    /// has begun; each request is logged to `logger`, one line. In development mode
    /// (``IrisServerConfiguration/development``) `/playground` is a page that builds, signs and
    /// shows URLs of the sources under the local root; otherwise it is no route of its own.
    public static func router(
        renderer: ImageRenderer, drain: DrainState = DrainState(),
        logger: Logger = Logger(label: "iris-server")
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(RequestLogMiddleware(logger: logger))
        router.middlewares.add(SecurityHeadersMiddleware())
        router.get("/health") { _, _ in
            let draining = drain.isDraining
            let load = renderer.gate.load
            let body =
                "{\"status\":\"\(draining ? "draining" : "ok")\",\"version\":\"\(IrisServerInfo.version)\","
                + "\"inFlight\":\(load.running),\"queued\":\(load.waiting)}\n"
            return Response(
                status: draining ? .serviceUnavailable : .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        if renderer.configuration.development {
            PlaygroundRoutes(configuration: renderer.configuration).add(to: router)
        }
        ImageRoutes(renderer: renderer).add(to: router)
        return router
    }

    /// The router of the metrics listener: `GET /metrics` in Prometheus's text format.
    public static func metricsRouter(renderer: ImageRenderer) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: renderer.metrics.exposition(load: renderer.gate.load))))
        }
        return router
    }

    /// The application listening where `configuration` says; `onRunning` is told the port.
    public static func make(
        configuration: IrisServerConfiguration, renderer: ImageRenderer, drain: DrainState = DrainState(),
        logger: Logger = Logger(label: "iris-server"),
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol & Service {
        Application(
            router: router(renderer: renderer, drain: drain, logger: logger),
            server: .http1(configuration: HTTP1Channel.Configuration(idleTimeout: configuration.idleTimeout.map(timeAmount))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "iris-server", backlog: configuration.listenBacklog),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// `duration` as NIO's time amount.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The metrics listener, where `configuration` says (``IrisServerConfiguration/metricsPort``).
    public static func makeMetrics(
        configuration: IrisServerConfiguration, renderer: ImageRenderer, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol & Service {
        Application(
            router: metricsRouter(renderer: renderer),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.metricsHost, port: configuration.metricsPort ?? 0),
                serverName: "iris-server-metrics"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
