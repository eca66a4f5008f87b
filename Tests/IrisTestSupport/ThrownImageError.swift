import Testing
import Iris

/// The ``ImageError`` `body` throws, or `nil` when it throws nothing; any other error is recorded
/// as a test issue (Iris throws only `ImageError`).
package func thrownImageError(_ body: () throws -> Void) -> ImageError? {
    do {
        try body()
        return nil
    } catch let error as ImageError {
        return error
    } catch {
        Issue.record("threw a non-ImageError: \(error)")
        return nil
    }
}
