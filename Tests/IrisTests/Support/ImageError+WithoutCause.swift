@testable import Iris

extension ImageError {
    /// The error with its cause dropped, to compare with an expected error when the cause (the
    /// loader's `URLError`, what a closure threw) is not the test's to predict. The cause is part
    /// of ``ImageError``'s equality; tests that check it compare it on its own.
    var withoutCause: ImageError {
        switch self {
        case let .network(reason, url, _): .network(reason: reason, url: url)
        case let .dataLoadingFailed(reason, _): .dataLoadingFailed(reason: reason)
        default: self
        }
    }
}
