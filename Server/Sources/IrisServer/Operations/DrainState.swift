import Synchronization

/// Whether the service is draining (a graceful shutdown has begun): `/health` answers 503 so
/// a load balancer sends new requests elsewhere while the ones in flight finish.
public final class DrainState: Sendable {
    private let state = Mutex<(draining: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Makes a state that is not draining.
    public init() {}

    /// Whether draining has begun.
    public var isDraining: Bool { state.withLock { $0.draining } }

    /// Marks the service as draining (for good).
    public func begin() {
        let waiters = state.withLock { state in
            state.draining = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once draining has begun.
    public func waitUntilDraining() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.draining { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
