import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a loader tells about a response before its body: status, length, type and headers.
///
/// The pipeline reads the headers to resume downloads (`ETag`, `Last-Modified`,
/// `Accept-Ranges`, `Content-Range`); see ``DataLoading``.
public struct DataLoadingResponse: Sendable, Equatable {
    /// The HTTP status code; `nil` for a response that is not HTTP.
    public var statusCode: Int?
    /// The length of the body, `nil` when unknown. For a `206` the loader reports the length
    /// of the range it received; the pipeline's own event, after it continued kept bytes,
    /// carries the length of the whole resource.
    public var expectedLength: Int?
    /// The MIME type the server named, if any.
    public var mimeType: String?
    /// The response headers, by name as the server sent them (look them up with
    /// ``value(forHTTPHeaderField:)``, which ignores case).
    public var headers: [String: String]

    /// Makes a response.
    public init(statusCode: Int? = nil, expectedLength: Int? = nil, mimeType: String? = nil, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.expectedLength = expectedLength
        self.mimeType = mimeType
        self.headers = headers
    }

    /// The status, length, MIME type and headers of a `URLResponse` (an `HTTPURLResponse` for
    /// the status and headers).
    public init(_ response: URLResponse) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        self.init(
            statusCode: http?.statusCode,
            expectedLength: response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil,
            mimeType: response.mimeType, headers: headers)
    }

    /// The value of the header `name`, whatever the case of its letters.
    public func value(forHTTPHeaderField name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
