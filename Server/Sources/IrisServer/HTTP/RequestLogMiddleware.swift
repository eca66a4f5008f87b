import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One structured log line per request, at `info`: its request id, method, path, status,
/// bytes and duration. The id is the client's `X-Request-Id` when it is a plain token (as
/// nginx's `$request_id` is), else a new random one; the response carries it back.
package struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the lines go.
    package let logger: Logger

    /// Makes the middleware.
    package init(logger: Logger) { self.logger = logger }

    /// Logs `request` once it is answered.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = Self.requestID(request.headers[.xRequestID])
        let clock = ContinuousClock()
        let started = clock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = id
            log(request, id: id, status: response.status.code, bytes: response.body.contentLength, started: started, clock: clock)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, id: id, status: status, bytes: nil, started: started, clock: clock)
            throw error
        }
    }

    private func log(_ request: Request, id: String, status: Int, bytes: Int?, started: ContinuousClock.Instant, clock: ContinuousClock) {
        let elapsed = started.duration(to: clock.now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "request_id": .string(id),
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "status": .stringConvertible(status),
            "duration_ms": .string(String(format: "%.2f", milliseconds)),
        ]
        if let bytes { metadata["bytes"] = .stringConvertible(bytes) }
        logger.info("request", metadata: metadata)
    }

    /// The client's id when it is 1–64 letters, digits, `-` or `_`; a new one otherwise.
    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.count),
            given.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        {
            return given
        }
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`.
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
