import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The first bytes of a download that stopped early, with what the server said identifies that
/// version of the resource: enough to ask for the rest (`Range: bytes=N-`, `If-Range`).
struct ResumableData: Sendable, Hashable {
    /// The bytes received, from the start of the body.
    var data: Data
    /// A strong `ETag` or a `Last-Modified` date, sent back as `If-Range`.
    var validator: String
    /// The length of the whole body, when the server said.
    var totalLength: Int?

    /// Makes resumable data.
    init(data: Data, validator: String, totalLength: Int? = nil) {
        self.data = data
        self.validator = validator
        self.totalLength = totalLength
    }

    /// The validator of a response that can be resumed: `Accept-Ranges: bytes` and a strong
    /// `ETag` (preferred) or a `Last-Modified` date; `nil` otherwise. A weak `ETag` (`W/"…"`)
    /// cannot be used with `If-Range` (RFC 9110 §13.1.5).
    static func validator(of response: DataLoadingResponse) -> String? {
        guard let ranges = response.value(forHTTPHeaderField: "Accept-Ranges"),
            ranges.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "bytes" })
        else { return nil }
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        if let lastModified = response.value(forHTTPHeaderField: "Last-Modified"), !lastModified.isEmpty { return lastModified }
        return nil
    }

    /// Adds `Range` and `If-Range` asking for the bytes after ``data``.
    func resumeRequest(_ request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("bytes=\(data.count)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Whether a 206's `Content-Range` ("bytes N-M/T") continues exactly after ``data`` (and
    /// agrees with the known total length).
    func isContinued(by contentRange: String?) -> Bool {
        guard let contentRange, contentRange.hasPrefix("bytes ") else { return false }
        let spec = contentRange.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        guard spec.count == 2, let start = spec[0].split(separator: "-").first.flatMap({ Int($0) }),
            start == data.count
        else { return false }
        if let totalLength, let total = Int(spec[1]), total != totalLength { return false }
        return true
    }

    /// The whole length a 206's `Content-Range` announces, if it does.
    static func totalLength(fromContentRange contentRange: String?) -> Int? {
        contentRange?.split(separator: "/").last.flatMap { Int($0) }
    }
}
