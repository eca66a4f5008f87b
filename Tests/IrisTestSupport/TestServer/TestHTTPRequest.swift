/// One request as the ``TestHTTPServer`` received it.
public struct TestHTTPRequest: Sendable, Hashable {
    /// The path, without the query.
    public var path: String
    /// The `Range` header, if any.
    public var range: String?
    /// The `If-Range` header, if any.
    public var ifRange: String?
    /// The `If-None-Match` header, if any.
    public var ifNoneMatch: String?
    /// The `If-Modified-Since` header, if any.
    public var ifModifiedSince: String?

    /// Makes a request record.
    public init(
        path: String, range: String? = nil, ifRange: String? = nil, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil
    ) {
        self.path = path
        self.range = range
        self.ifRange = ifRange
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
    }

    /// Whether the request is conditional on a validator (`If-None-Match` or `If-Modified-Since`).
    public var isConditional: Bool { ifNoneMatch != nil || ifModifiedSince != nil }

    /// The first byte of a `Range: bytes=N-` header, if the request has one of that form.
    public var rangeStart: Int? {
        guard let range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }
}
