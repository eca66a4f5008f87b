import Foundation

/// The error underneath an ``ImageError``, kept so callers can reach it.
///
/// Two causes are equal when both are absent, or when both are errors of the same type that
/// describe themselves alike (`String(reflecting:)`): a `URLError` with another code, or a
/// closure's error with other fields, is another cause. To ask what went wrong regardless of
/// the cause, compare ``ImageError/kind``.
public struct ErrorCause: Sendable, Equatable, CustomStringConvertible {
    /// The error itself; `nil` when nothing lies underneath.
    public let error: (any Error)?

    /// Keeps `error`.
    public init(_ error: (any Error)?) { self.error = error }

    /// No cause.
    public static let none = ErrorCause(nil)

    /// Same type and same reflection, or both absent.
    public static func == (lhs: ErrorCause, rhs: ErrorCause) -> Bool {
        switch (lhs.error, rhs.error) {
        case (nil, nil): return true
        case let (left?, right?): return type(of: left) == type(of: right) && String(reflecting: left) == String(reflecting: right)
        default: return false
        }
    }

    /// The error's own description, or "none".
    public var description: String { error.map { String(describing: $0) } ?? "none" }

    /// A readable reason for any error: its `LocalizedError` description, else its own.
    static func reason(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
