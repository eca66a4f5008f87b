import IrisServerCore
import Synchronization

/// One admission into the work queue (``AdmissionGate/admit()``, taken by the image routes'
/// admission step): the work it runs, and giving it back once.
///
/// The work may outlive the answer (an encode that cannot stop, past the 504), so it runs in a
/// task the admission owns, under the processing timeout (``run(_:)``). The admission goes back
/// to the gate once, when that work really ends, or when the handler returns without having
/// started any (``handlerReturned()``).
final class Admission: Sendable {
    private enum State {
        /// Admitted, no work started.
        case held
        /// The work is running; it gives the admission back when it ends.
        case working
        /// Given back.
        case ended
    }

    private let state = Mutex(State.held)
    private let gate: AdmissionGate
    private let limit: Duration

    /// An admission `gate` gave, for work cut off at `limit`.
    init(gate: AdmissionGate, limit: Duration) {
        self.gate = gate
        self.limit = limit
    }

    /// `work`, or a 504 at the processing timeout (``withTimeout(_:whenWorkEnds:_:)``); the
    /// admission is held until the work really ends. An admission runs one work.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let starts = state.withLock { state in
            guard case .held = state else { return false }
            state = .working
            return true
        }
        guard starts else { throw ServeError(status: 500, "an admission runs one work") }
        return try await withTimeout(limit, whenWorkEnds: { self.end() }, work)
    }

    /// The handler has returned: the admission goes back now unless a work holds it.
    func handlerReturned() {
        let unused = state.withLock { state in
            guard case .held = state else { return false }
            state = .ended
            return true
        }
        if unused { gate.dismiss() }
    }

    private func end() {
        state.withLock { $0 = .ended }
        gate.dismiss()
    }
}

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
