import Dispatch
import Foundation

/// Ctrl-C for async commands: the first SIGINT cancels the work (which then stops promptly,
/// cleans up and says what it did); a second one exits at once.
enum Interrupt {
    /// Runs `body` in a task that SIGINT cancels, and returns what it returns. `body` sees the
    /// interruption as cancellation (`Task.isCancelled`).
    static func cancelling<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let work = Task { try await body() }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if work.isCancelled { _exit(130) }
            work.cancel()
        }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
    static let exitStatus: Int32 = 130
}
