import Iris
/// When an ``ImageModel`` retries a failed load by itself.
///
/// Only failures that may pass are retried: transport errors, HTTP 408, 429 and 5xx. A 404,
/// an HTML page or undecodable data fails the same way every time.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first failure; 0 never retries.
    public var maxRetries: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var initialDelay: Duration

    /// Makes a policy: by default two retries, after 1 s and 2 s.
    public init(maxRetries: Int = 2, initialDelay: Duration = .seconds(1)) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
    }

    /// Whether `error` may pass on a later attempt.
    public static func isTransient(_ error: ImageError) -> Bool {
        switch error {
        case .network: return true
        case .httpStatus(let code, _): return code == 408 || code == 429 || (500...599).contains(code)
        default: return false
        }
    }

    /// How long to wait before retrying after the `failures`-th failure in a row (1 for the
    /// first), or `nil` when not to retry.
    public func delay(afterFailure failures: Int, error: ImageError) -> Duration? {
        guard failures >= 1, failures <= maxRetries, Self.isTransient(error) else { return nil }
        return initialDelay * (1 << min(failures - 1, 16))
    }
}
