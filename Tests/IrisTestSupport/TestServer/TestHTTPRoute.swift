import Foundation

/// What the ``TestHTTPServer`` answers on one path, and how.
public struct TestHTTPRoute: Sendable {
    /// The status code.
    public var status: Int
    /// The body.
    public var body: Data
    /// The `Content-Type` header.
    public var contentType: String
    /// How long to wait after the request arrives before sending anything.
    public var delay: Duration
    /// When set, the body goes out in pieces of `chunkSize` bytes with `chunkPause` between them.
    public var chunkSize: Int?
    /// The pause between trickled pieces.
    public var chunkPause: Duration
    /// When set (with `chunkSize`), piece `n` (from 0) goes out only once the test has called
    /// ``TestHTTPServer/releasePieces(_:through:)`` with `n` or more, instead of after
    /// `chunkPause`: the test, not a timer, decides when the body moves on. Piece 0 goes at once.
    public var piecesOnRelease: Bool
    /// When set, the connection is closed after this many body bytes, though `Content-Length`
    /// announces the whole body.
    public var dropAfterBytes: Int?
    /// Whether the response waits until ``TestHTTPServer/release(_:)`` is called for the path.
    public var isGated: Bool
    /// The `ETag` header (with its quotes, e.g. `"v1"`; `W/"v1"` is a weak one), if any.
    public var etag: String?
    /// The `Last-Modified` header, if any.
    public var lastModified: String?
    /// More header fields, sent as they are (`Cache-Control`, `Expires`, `Date`, `Age`...).
    /// A request whose `If-None-Match` names ``etag``, or whose `If-Modified-Since` is
    /// ``lastModified``, is answered `304 Not Modified` with these fields and no body.
    public var headers: [(String, String)]
    /// How the route answers a `Range` request.
    public var ranges: RangeSupport
    /// What follows `body`: the end of the response, bytes forever, or silence.
    public var bodyEnd: BodyEnd
    /// The `Content-Length` header: the length of what is sent, none, or a stated number.
    public var contentLength: ContentLength

    /// What the server does once it has sent `body`.
    public enum BodyEnd: Sendable, Equatable {
        /// The response ends (the default).
        case complete
        /// Filler bytes follow, `chunkSize` per write, for as long as the client keeps reading:
        /// a body without end. The connection closes only when the client goes away.
        case endless(chunkSize: Int)
        /// Nothing more is sent, and the connection stays open until the client goes away (or
        /// the server shuts down): a server stalled mid-body.
        case stall
    }

    /// What the `Content-Length` header says.
    public enum ContentLength: Sendable, Equatable {
        /// The length of the body sent (the default; for an ``BodyEnd/endless(chunkSize:)`` body
        /// there is none, as with ``absent``).
        case actual
        /// No `Content-Length`: HTTP/1.1 chunked transfer encoding.
        case absent
        /// This number, whatever is sent: a lie when it differs from the body.
        case announced(Int)
    }

    /// How a route answers `Range: bytes=N-` (with `If-Range`, honoured only when it matches
    /// the route's current `ETag` or `Last-Modified`).
    public enum RangeSupport: Sendable {
        /// No `Accept-Ranges`; a `Range` header is ignored (200, whole body).
        case none
        /// `Accept-Ranges: bytes`; a satisfiable range whose `If-Range` matches gets 206.
        case bytes
        /// Says `Accept-Ranges: bytes` but answers every request with 200 and the whole body.
        case advertisedButIgnored
        /// `Accept-Ranges: bytes`, but any `Range` gets 416.
        case unsatisfiable
        /// `Accept-Ranges: bytes`, but a 206 whose `Content-Range` starts one byte later than asked.
        case wrongContentRange
    }

    /// Makes a route; by default a plain 200 with `body`, sent at once.
    public init(
        status: Int = 200, body: Data, contentType: String = "application/octet-stream",
        delay: Duration = .zero, chunkSize: Int? = nil, chunkPause: Duration = .milliseconds(10),
        piecesOnRelease: Bool = false, dropAfterBytes: Int? = nil, isGated: Bool = false, etag: String? = nil,
        lastModified: String? = nil, headers: [(String, String)] = [], ranges: RangeSupport = .none,
        bodyEnd: BodyEnd = .complete, contentLength: ContentLength = .actual
    ) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.delay = delay
        self.chunkSize = chunkSize
        self.chunkPause = chunkPause
        self.piecesOnRelease = piecesOnRelease
        self.dropAfterBytes = dropAfterBytes
        self.isGated = isGated
        self.etag = etag
        self.lastModified = lastModified
        self.headers = headers
        self.ranges = ranges
        self.bodyEnd = bodyEnd
        self.contentLength = contentLength
    }

    /// A body without end: `body` (say, the start of a real image), then filler bytes for as long
    /// as the client reads, announced with `contentLength` (none by default: chunked).
    public static func endless(
        body: Data, contentType: String = "application/octet-stream",
        contentLength: ContentLength = .absent, chunkSize: Int = 64 * 1024
    ) -> TestHTTPRoute {
        TestHTTPRoute(
            body: body, contentType: contentType, bodyEnd: .endless(chunkSize: chunkSize),
            contentLength: contentLength)
    }

    /// A server that stalls mid-body: the headers announce all of `body` (with `etag` and
    /// `ranges`, when given), the first `sentBytes` of it go out at once, then nothing, with the
    /// connection left open.
    public static func stalling(
        body: Data, after sentBytes: Int, contentType: String = "application/octet-stream",
        etag: String? = nil, ranges: RangeSupport = .none
    ) -> TestHTTPRoute {
        TestHTTPRoute(
            body: body.prefix(sentBytes), contentType: contentType, etag: etag, ranges: ranges, bodyEnd: .stall,
            contentLength: .announced(body.count))
    }

    /// `body` in pieces of `pieceSize` bytes, each after the first sent only when the test
    /// releases it (``TestHTTPServer/releasePieces(_:through:)``).
    public static func inPieces(
        body: Data, pieceSize: Int, contentType: String = "application/octet-stream",
        etag: String? = nil, ranges: RangeSupport = .none
    ) -> TestHTTPRoute {
        TestHTTPRoute(
            body: body, contentType: contentType, chunkSize: pieceSize, piecesOnRelease: true, etag: etag,
            ranges: ranges)
    }

    /// The number of pieces `route` sends its body in.
    public var pieceCount: Int {
        guard let chunkSize, chunkSize > 0 else { return 1 }
        let sent = min(body.count, dropAfterBytes ?? body.count)
        return max(1, (sent + chunkSize - 1) / chunkSize)
    }

    /// A small HTML page served with 200, as a captive portal or a CDN error page would.
    public static func htmlPage(status: Int = 200) -> TestHTTPRoute {
        let page = "<!DOCTYPE html>\n<html><head><title>Not here</title></head><body><p>Nothing to see.</p></body></html>\n"
        return TestHTTPRoute(status: status, body: Data(page.utf8), contentType: "text/html; charset=utf-8")
    }

    /// A plain-text error page with `status` (404, 500...).
    public static func error(_ status: Int) -> TestHTTPRoute {
        TestHTTPRoute(status: status, body: Data("error \(status)\n".utf8), contentType: "text/plain")
    }
}
