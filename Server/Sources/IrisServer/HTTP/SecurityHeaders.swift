import HTTPTypes
import Hummingbird

/// Adds the headers every response carries, errors included: `X-Content-Type-Options: nosniff`
/// and a Content-Security-Policy that lets nothing run (a result opened as a document, an SVG
/// say, cannot script or load anything). A response that names its own policy keeps it: only
/// the development playground's page does, to run its own script.
package struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The policy sent.
    package static var contentSecurityPolicy: String { "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox" }

    /// Makes the middleware.
    package init() {}

    /// Adds the headers to the response of `next`, or to the error response it threw.
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        }
        return response
    }
}

extension HTTPField.Name {
    /// `X-Content-Type-Options`.
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    /// `Accept-CH`.
    static let acceptCH = HTTPField.Name("Accept-CH")!
    /// `Sec-CH-DPR`.
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    /// `DPR`.
    static let dpr = HTTPField.Name("DPR")!
    /// `Sec-CH-Width`.
    static let secCHWidth = HTTPField.Name("Sec-CH-Width")!
    /// `Width`.
    static let width = HTTPField.Name("Width")!
    /// `Server-Timing`.
    static let serverTiming = HTTPField.Name("Server-Timing")!
}
