#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State behind a `pthread_mutex_t`: the lock Iris uses for all shared mutable state.
///
/// Why not `Synchronization.Mutex`? On Linux it waits on a futex that ThreadSanitizer does not
/// see, so every access it guards is reported as a race (checked with a four-thread counter:
/// Mutex gives reports, a pthread mutex none). A pthread mutex costs the same uncontended and
/// keeps `swift test --sanitize=thread` meaningful.
final class LockedState<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Wraps `initial`.
    init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
