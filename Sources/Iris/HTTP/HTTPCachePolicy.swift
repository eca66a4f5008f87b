import Foundation

/// How a pipeline applies HTTP's caching rules to the original data it keeps on disk
/// (``ImagePipeline/Configuration/httpCache``): freshness as RFC 9111 computes it for a private
/// cache, with the choices the RFC leaves to a cache, and the clock it reads.
public struct HTTPCachePolicy: Sendable {
    /// Whether stored data follows its response's headers at all. `false` keeps every entry fresh
    /// for ever (until the disk cache evicts it by size): for apps whose URLs are versioned, so
    /// that a changed image always has a new URL. ``keepForever`` sets it.
    public var followsHTTPHeaders: Bool
    /// How long a response that names no freshness (no `max-age`, `Expires` or `Last-Modified`)
    /// stays fresh. One hour by default.
    public var defaultFreshness: TimeInterval
    /// The fraction of the time since `Last-Modified` that a response with validators but no
    /// explicit freshness stays fresh (heuristic freshness, RFC 9111 §4.2.2). 10% by default.
    public var heuristicFraction: Double
    /// The most heuristic freshness may give: one day by default.
    public var maxHeuristicFreshness: TimeInterval
    /// Whether every stale entry may be shown at once while it is revalidated in the background,
    /// as if each response had said `stale-while-revalidate` without end (entries marked
    /// `no-cache` or `must-revalidate` excepted). Off by default: only responses that say
    /// `stale-while-revalidate` are shown so, within their window.
    public var servesStaleWhileRevalidating: Bool
    /// Whether a stale entry is used when the origin cannot be reached at all (no connection, a
    /// timeout): RFC 9111 lets a disconnected cache do so, unless the response said
    /// `must-revalidate` or `no-cache`. On by default. An origin that answers with an error
    /// status gets its stale entry used only within its `stale-if-error` window.
    public var servesStaleWhenOffline: Bool
    /// The wall clock freshness is measured on; a test passes a clock it moves itself.
    public var now: @Sendable () -> Date

    /// Makes a policy; by default HTTP's rules, one hour for responses that say nothing, 10% of
    /// the age since `Last-Modified` (at most a day) for those with only validators.
    public init(
        followsHTTPHeaders: Bool = true, defaultFreshness: TimeInterval = 3_600, heuristicFraction: Double = 0.1,
        maxHeuristicFreshness: TimeInterval = 86_400, servesStaleWhileRevalidating: Bool = false,
        servesStaleWhenOffline: Bool = true, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.followsHTTPHeaders = followsHTTPHeaders
        self.defaultFreshness = defaultFreshness
        self.heuristicFraction = heuristicFraction
        self.maxHeuristicFreshness = maxHeuristicFreshness
        self.servesStaleWhileRevalidating = servesStaleWhileRevalidating
        self.servesStaleWhenOffline = servesStaleWhenOffline
        self.now = now
    }

    /// Every stored entry fresh until the disk cache evicts it by size: for versioned URLs.
    public static var keepForever: HTTPCachePolicy { HTTPCachePolicy(followsHTTPHeaders: false) }
}
