/// One request as the ``TestHTTPServer`` received it.
public struct TestHTTPRequest: Sendable, Hashable {
    /// The path, without the query.
    public var path: String
    /// The `Range` header, if any.
    public var range: String?
    /// The `If-Range` header, if any.
    public var ifRange: String?

    /// Makes a request record.
    public init(path: String, range: String? = nil, ifRange: String? = nil) {
        self.path = path
        self.range = range
        self.ifRange = ifRange
    }

    /// The first byte of a `Range: bytes=N-` header, if the request has one of that form.
    public var rangeStart: Int? {
        guard let range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }
}
