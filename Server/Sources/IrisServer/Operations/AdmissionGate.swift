import DequeModule
import IrisServerCore
import Synchronization

/// The bounded work queue, in two parts, bounded by what waiting costs.
///
/// Admission: at most `maxRunning + maxWaiting` requests are in the work at once (fetching
/// their source, waiting for a render slot or rendering); one beyond is refused at once (429).
/// A waiting request holds no pixels, only a connection, a task and its source's bytes, so the
/// count bound is large (2,048 by default, imgproxy's client limit) and two other bounds keep
/// a flood from running away: the source bytes held by requests waiting for a slot (each
/// distinct source counted once, however many sizes of it wait) and the time a request may
/// wait for a slot (past it, 429: it would rather be retried than answered late).
///
/// Render slots: at most `maxRunning` of the admitted render at once, the others wait for a
/// slot in arrival order. A request waiting for its source (a slow origin) holds its admission
/// but no render slot, so it never keeps the cores from requests whose sources are at hand.
package final class AdmissionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let source: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var admitted = 0
        var running = 0
        var nextID: UInt64 = 0
        var waiting = Deque<Waiter>()
        /// Sources held by waiting requests: bytes, and how many requests hold each.
        var heldSources: [String: (bytes: Int, holders: Int)] = [:]
        var heldBytes = 0
    }

    private let state = Mutex(State())
    /// The most renders at once.
    package let maxRunning: Int
    /// The most admitted requests not rendering (fetching or waiting for a slot).
    package let maxWaiting: Int
    /// The most source bytes held by requests waiting for a slot, each source counted once.
    package let maxWaitingBytes: Int
    /// The longest a request waits for a render slot before it is answered 429.
    package let queueTimeout: Duration
    private let clock: DeadlineClock

    /// Makes a gate; `clock` keeps the queue timeout.
    package init(
        maxRunning: Int, maxWaiting: Int, maxWaitingBytes: Int = .max, queueTimeout: Duration = .seconds(3600),
        clock: DeadlineClock = .continuous
    ) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWaitingBytes = max(0, maxWaitingBytes)
        self.queueTimeout = queueTimeout
        self.clock = clock
    }

    static let busy = ServeError(status: 429, "the service is busy, retry later")

    /// Admits a request into the work, or throws 429 when `maxRunning + maxWaiting` are in it.
    /// Every successful `admit` is paired with one ``dismiss()``.
    package func admit() throws(ServeError) {
        let admitted = state.withLock { state in
            guard state.admitted < maxRunning + maxWaiting else { return false }
            state.admitted += 1
            return true
        }
        if !admitted { throw Self.busy }
    }

    /// Gives back the admission an ``admit()`` took.
    package func dismiss() {
        state.withLock { $0.admitted -= 1 }
    }

    /// Renders running now, and admitted requests not rendering (fetching or waiting for a slot).
    package var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.admitted - $0.running) } }

    /// Source bytes held by requests waiting for a render slot now.
    package var waitingBytes: Int { state.withLock { $0.heldBytes } }

    /// Takes a render slot for an admitted request whose source `source` has `bytes`, waiting
    /// for one in arrival order; throws 429 when waiting would hold more source bytes than
    /// ``maxWaitingBytes``, or after ``queueTimeout`` without a slot. Every `enter` that
    /// returns is paired with one ``leave()``.
    package func enter(source: String = "", bytes: Int = 0) async throws(ServeError) {
        let outcome: Int? = state.withLock { state in
            if state.running < maxRunning && state.waiting.isEmpty {
                state.running += 1
                return nil
            }
            if state.heldSources[source] == nil, state.heldBytes + bytes > maxWaitingBytes, state.heldBytes > 0 {
                return -1
            }
            state.nextID += 1
            return Int(state.nextID)
        }
        guard let ticket = outcome else { return }
        if ticket < 0 { throw Self.busy }
        let id = UInt64(ticket)
        let deadline = clock.now + queueTimeout
        let expiry = Task { [weak self, clock] in
            do { try await clock.sleep(until: deadline) } catch { return }
            self?.expire(id)
        }
        let granted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now: Bool = state.withLock { state in
                if state.running < maxRunning && state.waiting.isEmpty {
                    state.running += 1
                    return true
                }
                state.waiting.append(Waiter(id: id, source: source, continuation: continuation))
                let held = state.heldSources[source]
                if held == nil { state.heldBytes += bytes }
                state.heldSources[source] = (held?.bytes ?? bytes, (held?.holders ?? 0) + 1)
                return false
            }
            if now { continuation.resume(returning: true) }
        }
        expiry.cancel()
        if !granted { throw Self.busy }
    }

    /// `body` holding a render slot (``enter(source:bytes:)``, then ``leave()``): one only
    /// while rendering, so a request waiting on a slow source keeps no core from the others,
    /// and an encode that cannot stop still has its core.
    func inRenderSlot<T>(source: String, bytes: Int, _ body: () async throws(ServeError) -> T) async throws(ServeError) -> T {
        try await enter(source: source, bytes: bytes)
        defer { leave() }
        // Cut off by the timeout while it waited: the slot goes straight back.
        if Task.isCancelled { throw ServeError(status: 503, "the request was cancelled") }
        return try await body()
    }

    /// Gives back the render slot an ``enter(source:bytes:)`` took: to the first waiter, if any.
    package func leave() {
        let next: Waiter? = state.withLock { state in
            if let next = state.waiting.popFirst() {
                Self.release(next.source, in: &state)
                return next
            }
            state.running -= 1
            return nil
        }
        next?.continuation.resume(returning: true)
    }

    /// The waiter `id`, if still waiting, leaves the queue unserved.
    private func expire(_ id: UInt64) {
        let expired: Waiter? = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = state.waiting.remove(at: index)
            Self.release(waiter.source, in: &state)
            return waiter
        }
        expired?.continuation.resume(returning: false)
    }

    private static func release(_ source: String, in state: inout State) {
        guard let held = state.heldSources[source] else { return }
        if held.holders <= 1 {
            state.heldSources[source] = nil
            state.heldBytes -= held.bytes
        } else {
            state.heldSources[source] = (held.bytes, held.holders - 1)
        }
    }
}
