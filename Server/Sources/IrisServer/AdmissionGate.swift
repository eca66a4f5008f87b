import DequeModule
import IrisServerCore
import Synchronization

/// The bounded work queue, in two parts. Admission: at most `maxRunning + maxWaiting` requests
/// are in the work at once (fetching their source, waiting for a render slot or rendering); one
/// beyond is refused at once (429) instead of piling up. Render slots: at most `maxRunning` of
/// the admitted render at once, the others wait for a slot in arrival order. A request waiting
/// for its source (a slow origin) holds its admission but no render slot, so it never keeps the
/// cores from requests whose sources are at hand.
public final class AdmissionGate: Sendable {
    private struct State {
        var admitted = 0
        var running = 0
        var waiting = Deque<CheckedContinuation<Void, Never>>()
    }

    private let state = Mutex(State())
    /// The most renders at once.
    public let maxRunning: Int
    /// The most admitted requests not rendering (fetching or waiting for a slot).
    public let maxWaiting: Int

    /// Makes a gate.
    public init(maxRunning: Int, maxWaiting: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Admits a request into the work, or throws 429 when `maxRunning + maxWaiting` are in it.
    /// Every successful `admit` is paired with one ``dismiss()``.
    public func admit() throws(ServeError) {
        let admitted = state.withLock { state in
            guard state.admitted < maxRunning + maxWaiting else { return false }
            state.admitted += 1
            return true
        }
        if !admitted { throw ServeError(status: 429, "the service is busy, retry later") }
    }

    /// Gives back the admission an ``admit()`` took.
    public func dismiss() {
        state.withLock { $0.admitted -= 1 }
    }

    /// Renders running now, and admitted requests not rendering (fetching or waiting for a slot).
    public var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.admitted - $0.running) } }

    /// Takes a render slot for an admitted request, waiting for one in arrival order. Every
    /// `enter` is paired with one ``leave()``.
    public func enter() async {
        let now: Bool = state.withLock { state in
            guard state.running < maxRunning else { return false }
            state.running += 1
            return true
        }
        if now { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted: Bool = state.withLock { state in
                if state.running < maxRunning {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives back the render slot an ``enter()`` took.
    public func leave() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            if let next = state.waiting.popFirst() { return next }
            state.running -= 1
            return nil
        }
        next?.resume()
    }
}
