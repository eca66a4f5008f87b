import Foundation

/// What an HTTP response said about caching its body, as a private cache keeps it beside the
/// bytes (RFC 9111): the header fields that decide freshness and revalidation, and when the
/// request went out and the response came back.
///
/// The disk cache stores it with each original (``DataCacheEntry``); a fetch hands it on with the
/// bytes (``FetchedData``), and an image decoded from them carries it
/// (``LoadedImage/httpMetadata``), so the memory cache knows when its images go stale too.
public struct HTTPCacheMetadata: Sendable, Hashable {
    /// The fields kept: the ones freshness, revalidation and their renewal read.
    public static let keptFields: Set<String> = ["cache-control", "expires", "date", "age", "etag", "last-modified"]

    /// The kept header fields, by lower-cased name.
    public let headers: [String: String]
    /// When the request was sent (RFC 9111's `request_time`).
    public let requestTime: Date
    /// When the response arrived (`response_time`).
    public let responseTime: Date
    /// The `Cache-Control` directives, read once from ``headers``: a memory-cache hit asks for
    /// freshness, and must not parse text each time.
    public let cacheControl: CacheControl
    /// `Date`, `Expires` (`.some(nil)` when unreadable: in the past) and `Last-Modified` as dates,
    /// and `Age` in seconds, read once from ``headers``.
    private let date: Date?
    private let expires: Date??
    private let lastModifiedDate: Date?
    private let ageValue: TimeInterval

    /// The metadata of a response with `headers` (any case; fields a cache does not read are
    /// left out), requested at `requestTime` and received at `responseTime`.
    public init(headers: [String: String], requestTime: Date, responseTime: Date) {
        var kept: [String: String] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            if Self.keptFields.contains(name) { kept[name] = kept[name].map { $0 + ", " + value } ?? value }
        }
        self.init(kept: kept, requestTime: requestTime, responseTime: responseTime)
    }

    /// The metadata of fields already kept (lower-cased names), with what they say read once.
    private init(kept headers: [String: String], requestTime: Date, responseTime: Date) {
        self.headers = headers
        self.requestTime = requestTime
        self.responseTime = responseTime
        cacheControl = headers["cache-control"].map(CacheControl.init) ?? CacheControl()
        date = headers["date"].flatMap(HTTPDate.parse)
        expires = headers["expires"].map(HTTPDate.parse)
        lastModifiedDate = headers["last-modified"].flatMap(HTTPDate.parse)
        ageValue = headers["age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map(TimeInterval.init) ?? 0
    }

    // MARK: What the fields say

    /// The entity tag (`ETag`), quotes included, as sent.
    public var etag: String? { headers["etag"] }
    /// `Last-Modified`, as sent.
    public var lastModified: String? { headers["last-modified"] }
    /// Whether a conditional request can revalidate the response: it named a validator.
    public var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The header fields of a conditional request that revalidates this response:
    /// `If-None-Match` with its entity tag, `If-Modified-Since` with its `Last-Modified`.
    public var conditionalHeaders: [String: String] {
        var fields: [String: String] = [:]
        if let etag { fields["If-None-Match"] = etag }
        if let lastModified { fields["If-Modified-Since"] = lastModified }
        return fields
    }

    /// How long the response is fresh from its generation, in seconds (RFC 9111 §4.2.1):
    /// `max-age`, else `Expires` minus `Date` (an unreadable `Expires` is in the past), else
    /// heuristic freshness from `Last-Modified`, else the policy's default.
    public func freshnessLifetime(_ policy: HTTPCachePolicy) -> TimeInterval {
        if cacheControl.noCache { return 0 }
        if let maxAge = cacheControl.maxAge { return TimeInterval(maxAge) }
        let date = self.date ?? responseTime
        if let expires {
            guard let expiry = expires else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        if let lastModified = lastModifiedDate {
            let heuristic = max(0, date.timeIntervalSince(lastModified)) * policy.heuristicFraction
            return min(heuristic, policy.maxHeuristicFreshness)
        }
        return policy.defaultFreshness
    }

    /// The response's age at `now`, in seconds (RFC 9111 §4.2.3): its age when it arrived
    /// (the larger of what `Date` shows and what `Age` said plus the time in transit), plus the
    /// time it has been stored.
    public func age(at now: Date) -> TimeInterval {
        let apparentAge = date.map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let correctedAge = ageValue + max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparentAge, correctedAge) + max(0, now.timeIntervalSince(responseTime))
    }

    /// What the stored response allows at `now` under `policy`.
    public func validity(at now: Date, policy: HTTPCachePolicy) -> HTTPCacheValidity {
        guard policy.followsHTTPHeaders else { return .fresh }
        let control = cacheControl
        let staleness = age(at: now) - freshnessLifetime(policy)
        if staleness < 0, !control.noCache { return .fresh }
        let revalidatesFirst = control.noCache || control.mustRevalidate
        let staleSeconds = max(0, staleness)
        return HTTPCacheValidity(
            isFresh: false,
            servesWhileRevalidating: !revalidatesFirst
                && (policy.servesStaleWhileRevalidating || control.staleWhileRevalidate.map { staleSeconds <= TimeInterval($0) } ?? false),
            servesOnErrorStatus: !revalidatesFirst && control.staleIfError.map { staleSeconds <= TimeInterval($0) } ?? false,
            servesWhenUnreachable: !revalidatesFirst
                && (policy.servesStaleWhenOffline || control.staleIfError.map { staleSeconds <= TimeInterval($0) } ?? false))
    }

    /// What a stored response with no metadata allows (written by an earlier version of the disk
    /// cache, or stored by hand): its age is unknown, so it is stale unless the policy keeps
    /// everything, and has no validators, so a revalidation loads it again.
    public static func validityWithoutMetadata(policy: HTTPCachePolicy) -> HTTPCacheValidity {
        guard policy.followsHTTPHeaders else { return .fresh }
        return HTTPCacheValidity(
            isFresh: false, servesWhileRevalidating: policy.servesStaleWhileRevalidating, servesOnErrorStatus: false,
            servesWhenUnreachable: policy.servesStaleWhenOffline)
    }

    /// The metadata after a `304 Not Modified` with `headers` (RFC 9111 §4.3.4): the fields the
    /// 304 carries replace the stored ones, and the times are the revalidation's.
    public func renewed(by headers: [String: String], requestTime: Date, responseTime: Date) -> HTTPCacheMetadata {
        let update = HTTPCacheMetadata(headers: headers, requestTime: requestTime, responseTime: responseTime)
        return HTTPCacheMetadata(
            kept: self.headers.merging(update.headers) { _, new in new }, requestTime: requestTime, responseTime: responseTime)
    }
}

/// What a stored response allows at one moment (``HTTPCacheMetadata/validity(at:policy:)``).
public struct HTTPCacheValidity: Sendable, Hashable {
    /// Fresh: used without asking the origin.
    public var isFresh: Bool
    /// Stale, but may be shown at once while a revalidation runs in the background
    /// (`stale-while-revalidate`, or ``HTTPCachePolicy/servesStaleWhileRevalidating``).
    public var servesWhileRevalidating: Bool
    /// Stale, and may be used when the origin answers a revalidation with an error status
    /// (`stale-if-error`).
    public var servesOnErrorStatus: Bool
    /// Stale, and may be used when the origin cannot be reached (a disconnected cache; never for
    /// `must-revalidate` or `no-cache`).
    public var servesWhenUnreachable: Bool

    /// Fresh.
    public static let fresh = HTTPCacheValidity(
        isFresh: true, servesWhileRevalidating: true, servesOnErrorStatus: true, servesWhenUnreachable: true)
}

extension HTTPCacheMetadata {
    /// The metadata as bytes, for the disk cache's entry file: the two times (seconds since
    /// 1970 as IEEE doubles), then the fields, each as a UTF-8 name and value with 16-bit
    /// lengths; little-endian.
    public var serialized: [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(requestTime.timeIntervalSince1970.bitPattern)
        append(responseTime.timeIntervalSince1970.bitPattern)
        let fields = headers.sorted { $0.key < $1.key }
        append(UInt16(fields.count))
        for (name, value) in fields {
            for text in [name, value] {
                let utf8 = Array(text.utf8.prefix(Int(UInt16.max)))
                append(UInt16(utf8.count))
                bytes += utf8
            }
        }
        return bytes
    }

    /// Reads ``serialized`` bytes; `nil` when they are not such bytes (the entry file's
    /// checksums make that rare: a file from a different format).
    public init?<Bytes: Collection<UInt8>>(serialized bytes: Bytes) {
        var cursor = bytes.startIndex
        func read<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            var value = T.zero
            for shift in 0..<MemoryLayout<T>.size {
                guard cursor != bytes.endIndex else { return nil }
                value |= T(bytes[cursor]) << (shift * 8)
                cursor = bytes.index(after: cursor)
            }
            return value
        }
        func readText() -> String? {
            guard let count = read(UInt16.self), let end = bytes.index(cursor, offsetBy: Int(count), limitedBy: bytes.endIndex) else {
                return nil
            }
            defer { cursor = end }
            return String(validating: bytes[cursor..<end], as: UTF8.self)
        }
        guard let requested = read(UInt64.self), let responded = read(UInt64.self), let count = read(UInt16.self) else { return nil }
        var headers: [String: String] = [:]
        for _ in 0..<count {
            guard let name = readText(), let value = readText() else { return nil }
            headers[name] = value
        }
        guard cursor == bytes.endIndex else { return nil }
        self.init(
            kept: headers, requestTime: Date(timeIntervalSince1970: Double(bitPattern: requested)),
            responseTime: Date(timeIntervalSince1970: Double(bitPattern: responded)))
    }
}
