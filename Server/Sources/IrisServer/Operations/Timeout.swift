import IrisServerCore
import Synchronization

/// `work`, or a 504 as soon as it takes longer than `limit`. The work runs in a task of its
/// own, cancelled at the limit but not waited for: a step that cannot stop (an encode already
/// running) does not hold the answer back. `whenWorkEnds` runs once the work has really
/// ended, whichever came first (the admission slot is given back there).
func withTimeout<T: Sendable>(
    _ limit: Duration, whenWorkEnds: @escaping @Sendable () -> Void = {},
    _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let worker = Task {
        defer { whenWorkEnds() }
        return try await work()
    }
    let timer = Task {
        do { try await Task.sleep(for: limit) } catch { return }
        outcome.finish(.failure(ServeError(status: 504, "the image took too long to make")))
        worker.cancel()
    }
    Task {
        let result = await worker.result
        timer.cancel()
        outcome.finish(result)
    }
    return try await withTaskCancellationHandler {
        try await outcome.value()
    } onCancel: {
        worker.cancel()
        timer.cancel()
        outcome.finish(.failure(CancellationError()))
    }
}

/// The first of several outcomes to arrive, handed to one waiter; later ones are dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<T, any Error>?)
        case arrived(Result<T, any Error>)
        case delivered
    }

    private let state = Mutex<State>(.pending(nil))

    /// Settles the outcome, unless one arrived before.
    func finish(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard case .pending(let waiter) = state else { return nil }
            if let waiter {
                state = .delivered
                return waiter
            }
            state = .arrived(result)
            return nil
        }
        waiter?.resume(with: result)
    }

    /// Waits for the outcome.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLock { state in
                if case .arrived(let result) = state {
                    state = .delivered
                    return result
                }
                state = .pending(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
