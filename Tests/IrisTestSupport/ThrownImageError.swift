#if IRIS_TESTABLE
import Testing
@testable import Iris

/// The ``ImageError`` `body` throws, or `nil` when it throws nothing; any other error is recorded
/// as a test issue (Iris throws only `ImageError`).
package func thrownImageError(_ body: () throws -> Void) -> ImageError? {
    do {
        try body()
        return nil
    } catch {
        return imageError(error)
    }
}

/// The ``ImageError`` async `body` throws, or `nil` when it throws nothing (runs on the caller's
/// executor).
package nonisolated(nonsending) func thrownImageError(_ body: nonisolated(nonsending) () async throws -> Void) async -> ImageError? {
    do {
        try await body()
        return nil
    } catch {
        return imageError(error)
    }
}

/// `error` as the ``ImageError`` it should be; anything else is recorded as a test issue.
private func imageError(_ error: any Error) -> ImageError? {
    guard let error = error as? ImageError else {
        Issue.record("threw a non-ImageError: \(error)")
        return nil
    }
    return error
}
#endif
