import Crypto
import Foundation
import Iris
import HTTPTypes
import Hummingbird
import IrisServerCore

/// Turns a ``ServeResult`` into an HTTP response: the headers a CDN expects on images, none
/// of the caching ones on errors.
package struct ImageResponses: Sendable {
    /// `Cache-Control: max-age` of results, in seconds.
    package var cacheTTL: Int
    /// `Retry-After` of a 429, in seconds.
    package var retryAfterSeconds: Int

    /// Whether client hints are on (`Accept-CH`, `Vary` on the hint headers).
    package var clientHints: Bool

    /// Makes the response builder.
    package init(cacheTTL: Int, retryAfterSeconds: Int, clientHints: Bool = false) {
        self.cacheTTL = cacheTTL
        self.retryAfterSeconds = retryAfterSeconds
        self.clientHints = clientHints
    }

    /// The response for `result`, at `now` (for `expires`).
    package func response(for result: ServeResult, now: Date = Date()) -> Response {
        switch result {
        case .image(let image):
            var headers = commonHeaders(
                etag: image.etag, request: image.request, format: image.format,
                negotiated: image.negotiated, now: now, fileExtension: image.passthrough?.fileExtension)
            headers[.contentType] = image.mimeType
            headers[.serverTiming] = image.timings.serverTiming
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.data)))
        case .notModified(let prepared):
            let headers = commonHeaders(
                etag: prepared.etag, request: prepared.request, format: prepared.format,
                negotiated: prepared.negotiated, now: now)
            return Response(status: .notModified, headers: headers)
        case .sourceNotModified(_, let etag):
            var headers = HTTPFields()
            headers[.eTag] = etag
            headers[.cacheControl] = "max-age=\(cacheTTL), public"
            return Response(status: .notModified, headers: headers)
        case .failure(let error):
            return errorResponse(error)
        }
    }

    /// A plain-text error with its one-line reason; never cacheable.
    package func errorResponse(_ error: ServeError) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if error.status == 429 { headers[.retryAfter] = String(retryAfterSeconds) }
        return Response(
            status: HTTPResponse.Status(code: error.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: error.reason + "\n")))
    }

    private func commonHeaders(
        etag: String, request: ServeRequest, format: OutputFormat, negotiated: Bool, now: Date,
        fileExtension: String? = nil
    ) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = etag
        let options = request.options
        var maxAge = cacheTTL
        if let expires = options.expires { maxAge = max(0, min(maxAge, expires - Int(now.timeIntervalSince1970))) }
        headers[.cacheControl] = "max-age=\(maxAge), public"
        var vary: [String] = negotiated ? ["Accept"] : []
        if clientHints {
            headers[.acceptCH] = "DPR, Sec-CH-DPR, Width, Sec-CH-Width"
            vary += ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"]
        }
        if !vary.isEmpty { headers[.vary] = vary.joined(separator: ", ") }
        headers[.contentDisposition] = Self.contentDisposition(
            name: options.filename ?? request.source.baseName,
            fileExtension: fileExtension ?? format.fileExtension,
            attachment: options.returnAttachment)
        return headers
    }

    /// `inline; filename="name.ext"` (or `attachment`), with `filename*` for names beyond ASCII.
    static func contentDisposition(name: String, fileExtension: String, attachment: Bool) -> String {
        let file = name + "." + fileExtension
        let ascii = String(
            file.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F ? Character(scalar) : "_"
            })
        var value = (attachment ? "attachment" : "inline") + "; filename=\"\(ascii)\""
        if ascii != file, let encoded = file.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            value += "; filename*=UTF-8''" + encoded
        }
        return value
    }
}

/// The strong validator of a result, and matching it against `If-None-Match`.
enum ETag {
    /// The validator: the service's version, the format, the path, the hints that shaped it,
    /// and the source's bytes.
    static func of(_ request: ServeRequest, format: String, data: Data) -> String {
        let options = request.options
        var hash = SHA256()
        hash.update(data: Array("iris-server \(IrisServerInfo.version)\n\(format)\n\(request.signedPath)\ndpr \(options.dpr)\n".utf8))
        if options.width != 0 { hash.update(data: Array("width \(options.width)\n".utf8)) }
        hash.update(data: Array(SHA256.hash(data: data)))
        return "\"" + Base64URL.encode(Array(hash.finalize()).prefix(18)) + "\""
    }

    /// Whether an `If-None-Match` value names a validator that is not one of this service's
    /// (`*` aside): the source's own, as imgproxy gives out.
    static func namesAnotherValidator(_ ifNoneMatch: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            guard value != "*", !value.isEmpty else { return false }
            // The service's own: 18 bytes of a SHA-256, base64url, in quotes (``of(_:format:data:)``).
            let quoted = value.count == 26 && value.first == "\"" && value.last == "\""
            let base64URL = value.dropFirst().dropLast().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            return !(quoted && base64URL)
        }
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let value = candidate.trimmingCharacters(in: .whitespaces)
            return value == "*" || value == etag || value == "W/" + etag
        }
    }
}

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
