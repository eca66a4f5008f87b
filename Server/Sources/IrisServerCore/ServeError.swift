/// A request the service refuses or cannot serve: an HTTP status and a one-line reason that
/// names what was wrong and leaks no internals (no paths, no addresses, no library messages).
package struct ServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code (4xx for the client's request, 5xx for the service).
    package let status: Int
    /// One line for the response body.
    package let reason: String

    /// Makes an error.
    package init(status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// "403: signature does not match".
    package var description: String { "\(status): \(reason)" }

    /// 400: the URL or an option is malformed.
    package static func badRequest(_ reason: String) -> ServeError { ServeError(status: 400, reason) }
    /// 403: the signature or the source is refused.
    package static func forbidden(_ reason: String) -> ServeError { ServeError(status: 403, reason) }
    /// 404: nothing to serve (a source that is not there, an expired URL).
    package static func notFound(_ reason: String) -> ServeError { ServeError(status: 404, reason) }
    /// 413: the source or the result is over a size limit.
    package static func tooLarge(_ reason: String) -> ServeError { ServeError(status: 413, reason) }
    /// 422: the source is not an image the service can read.
    package static func unprocessable(_ reason: String) -> ServeError { ServeError(status: 422, reason) }
}
