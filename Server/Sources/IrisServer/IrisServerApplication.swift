import Foundation
import Hummingbird
import Logging

/// The image service as a Hummingbird application: `GET /health`, and every other `GET` path
/// an imgproxy URL rendered by an ``ImageRenderer``.
public enum IrisServerApplication {
    /// The router of the service over `renderer` (for tests with Hummingbird's test client, and
    /// for ``make(configuration:renderer:)``).
    public static func router(renderer: ImageRenderer) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware())
        let responses = ImageResponses(cacheTTL: renderer.configuration.cacheTTL,
                                       retryAfterSeconds: renderer.configuration.retryAfterSeconds,
                                       clientHints: renderer.configuration.clientHints)
        router.get("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        @Sendable func image(_ request: Request, _: BasicRequestContext) async -> Response {
            let result = await renderer.serve(path: request.uri.path, accept: request.headers[.accept],
                                              ifNoneMatch: request.headers[.ifNoneMatch],
                                              dprHint: request.headers[.secCHDPR] ?? request.headers[.dpr])
            return responses.response(for: result)
        }
        router.get("**", use: image)
        // HEAD: the same status and headers (Content-Length included), no body.
        router.head("**") { request, context -> Response in
            let full = await image(request, context)
            return Response(status: full.status, headers: full.headers)
        }
        return router
    }

    /// The application listening where `configuration` says.
    public static func make(configuration: ServerConfiguration, renderer: ImageRenderer,
                            logger: Logger = Logger(label: "iris-server")) -> some ApplicationProtocol {
        Application(router: router(renderer: renderer),
                    configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                            serverName: "iris-server"),
                    logger: logger)
    }
}
