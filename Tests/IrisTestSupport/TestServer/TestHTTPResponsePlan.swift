import Foundation

/// What to send for one request to a route: status, headers and the slice of the body,
/// following the route's range support and validators.
struct TestHTTPResponsePlan {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    init(route: TestHTTPRoute, request: TestHTTPRequest) {
        var headers: [(String, String)] = [("Content-Type", route.contentType)]
        if let etag = route.etag { headers.append(("ETag", etag)) }
        if let lastModified = route.lastModified { headers.append(("Last-Modified", lastModified)) }
        if route.ranges != .none { headers.append(("Accept-Ranges", "bytes")) }
        headers += route.headers
        status = route.status
        body = route.body

        if route.status == 200, Self.isNotModified(request, route) {
            // RFC 9110 §13.1: If-None-Match (weak comparison) first; If-Modified-Since only
            // without it. A 304 has the validators and caching fields, and no body.
            self.status = 304
            self.body = Data()
            self.headers = headers.filter { $0.0 != "Content-Type" } + [("Connection", "close")]
            return
        }

        if route.status == 200, let start = request.rangeStart, Self.ifRangeMatches(request.ifRange, route) {
            switch route.ranges {
            case .none, .advertisedButIgnored:
                break
            case .unsatisfiable:
                (status, body) = (416, Data())
                headers.append(("Content-Range", "bytes */\(route.body.count)"))
            case .bytes, .wrongContentRange:
                guard start < route.body.count else {
                    (status, body) = (416, Data())
                    headers.append(("Content-Range", "bytes */\(route.body.count)"))
                    break
                }
                let first = route.ranges == .wrongContentRange ? start + 1 : start
                status = 206
                body = route.body.subdata(in: (route.body.startIndex + first)..<route.body.endIndex)
                headers.append(("Content-Range", "bytes \(first)-\(route.body.count - 1)/\(route.body.count)"))
            }
        }
        switch route.contentLength {
        case .actual:
            if case .endless = route.bodyEnd { break }
            headers.append(("Content-Length", String(body.count)))
        case .absent:
            break
        case .announced(let length):
            headers.append(("Content-Length", String(length)))
        }
        headers.append(("Connection", "close"))
        self.headers = headers
    }

    /// Whether a conditional request names the route's current validator.
    private static func isNotModified(_ request: TestHTTPRequest, _ route: TestHTTPRoute) -> Bool {
        if let ifNoneMatch = request.ifNoneMatch {
            guard let etag = route.etag else { return false }
            func opaque(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag) }
            return ifNoneMatch.split(separator: ",").contains {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == "*" || opaque(tag) == opaque(etag)
            }
        }
        if let ifModifiedSince = request.ifModifiedSince, let lastModified = route.lastModified {
            return ifModifiedSince == lastModified
        }
        return false
    }

    /// `If-Range` absent, or equal to the route's strong `ETag` or its `Last-Modified`
    /// (RFC 9110: a weak entity tag never matches).
    private static func ifRangeMatches(_ ifRange: String?, _ route: TestHTTPRoute) -> Bool {
        guard let ifRange else { return true }
        if let etag = route.etag, !etag.hasPrefix("W/"), ifRange == etag { return true }
        if let lastModified = route.lastModified, ifRange == lastModified { return true }
        return false
    }
}
