import DequeModule
import IrisServerCore
import Synchronization

/// A bounded work queue: at most `maxRunning` renders at once, at most `maxWaiting` waiting for
/// a slot; a request beyond both is refused at once (429) instead of piling up.
public final class AdmissionGate: Sendable {
    private struct State {
        var running = 0
        var waiting = Deque<CheckedContinuation<Void, Never>>()
    }

    private let state = Mutex(State())
    /// The most renders at once.
    public let maxRunning: Int
    /// The most renders waiting for a slot.
    public let maxWaiting: Int

    /// Makes a gate.
    public init(maxRunning: Int, maxWaiting: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Runs `work` in a slot, waiting for one if the queue has room; throws 429 when it has not.
    public func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await acquire()
        do {
            let value = try await work()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }

    /// Takes a slot, waiting for one if the queue has room; throws 429 when it has not. Every
    /// successful `enter` is paired with one ``leave()``.
    public func enter() async throws { try await acquire() }

    /// Gives back the slot an ``enter()`` took.
    public func leave() { release() }

    /// Renders running and waiting now.
    public var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    private func acquire() async throws {
        enum Decision { case admitted, wait, refused }
        let decision: Decision = state.withLock { state in
            if state.running < maxRunning {
                state.running += 1
                return .admitted
            }
            return state.waiting.count < maxWaiting ? .wait : .refused
        }
        switch decision {
        case .admitted: return
        case .refused: throw ServeError(status: 429, "the service is busy, retry later")
        case .wait:
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
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            if let next = state.waiting.popFirst() { return next }
            state.running -= 1
            return nil
        }
        next?.resume()
    }
}
