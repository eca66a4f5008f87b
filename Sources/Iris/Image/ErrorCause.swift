/// The error underneath an ``ImageError``, kept so callers can reach it. It is context, not
/// identity: two ``ImageError``s that differ only in their causes are equal.
public struct ErrorCause: Sendable, Equatable, CustomStringConvertible {
    /// The error itself; `nil` when nothing lies underneath.
    public let error: (any Error)?

    /// Keeps `error`.
    public init(_ error: (any Error)?) { self.error = error }

    /// No cause.
    public static let none = ErrorCause(nil)

    public static func == (lhs: ErrorCause, rhs: ErrorCause) -> Bool { true }

    public var description: String { error.map { String(describing: $0) } ?? "none" }
}
