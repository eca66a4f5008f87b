/// The `Cache-Control` response directives a private cache obeys (RFC 9111 §5.2.2, RFC 5861).
///
/// `s-maxage` and `proxy-revalidate` are for shared caches and are read but not obeyed;
/// `private` and `public` change nothing for a private cache. A directive given twice counts
/// at its first occurrence; a `max-age` whose value is not a number makes the response stale
/// (RFC 9111 §4.2.1).
public struct CacheControl: Sendable, Hashable {
    /// `max-age=N`: fresh for N seconds from its generation.
    public var maxAge: Int?
    /// `no-cache`: stored, but revalidated before each use (its field-name form counts as the
    /// whole directive: a private cache keeps no partial responses).
    public var noCache = false
    /// `no-store`: never stored on disk.
    public var noStore = false
    /// `must-revalidate`: once stale, never used without a successful revalidation (an error
    /// instead when the origin cannot be reached).
    public var mustRevalidate = false
    /// `immutable`: will not change while fresh.
    public var immutable = false
    /// `stale-while-revalidate=N`: may be shown for N seconds after it goes stale while a
    /// revalidation runs in the background.
    public var staleWhileRevalidate: Int?
    /// `stale-if-error=N`: may be shown for N seconds after it goes stale when the origin fails
    /// (an error status or no answer).
    public var staleIfError: Int?

    /// No directives.
    public init() {}

    /// The directives of a `Cache-Control` field value (several field lines joined by commas).
    public init(_ value: String) {
        var seen: Set<String> = []
        for item in value.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard let rawName = parts.first else { continue }
            let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, seen.insert(name).inserted else { continue }
            let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]) : nil
            // An unreadable number reads as 0: the response is then stale, the safe side.
            let seconds = argument.map { Int($0).map { max(0, $0) } ?? 0 }
            switch name {
            case "max-age": maxAge = seconds ?? 0
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "immutable": immutable = true
            case "stale-while-revalidate": staleWhileRevalidate = seconds ?? 0
            case "stale-if-error": staleIfError = seconds ?? 0
            default: break
            }
        }
    }
}
