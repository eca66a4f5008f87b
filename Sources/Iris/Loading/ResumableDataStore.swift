import Foundation

/// Partial downloads kept for resuming, by data key, within a byte budget: the least recently
/// kept go first when a new one does not fit.
///
/// A download cancelled after some bytes (a cell scrolled away) is kept here with its
/// validator; the next load of the same data asks only for the rest. Taking an entry removes it:
/// the load that resumes owns the bytes.
public final class ResumableDataStore: Sendable {
    /// The most bytes kept in all.
    public let byteLimit: Int

    private struct State {
        var entries: [String: ResumableData] = [:]
        /// Keys from least to most recently kept.
        var order: [String] = []
        var byteCount = 0

        mutating func remove(_ key: String) {
            guard let entry = entries.removeValue(forKey: key) else { return }
            byteCount -= entry.data.count
            order.removeAll { $0 == key }
        }
    }

    private let state = LockedState(State())

    /// Makes an empty store keeping at most `byteLimit` bytes (32 MiB by default).
    public init(byteLimit: Int = 32 * 1024 * 1024) {
        self.byteLimit = byteLimit
    }

    /// Bytes kept now.
    public var byteCount: Int { state.withLock { $0.byteCount } }

    /// The keys kept now, least recently kept first.
    var keys: [String] { state.withLock { $0.order } }

    /// Keeps `partial` for `key` (replacing what was kept for it), dropping the least recently
    /// kept entries until it fits. Data larger than the whole budget, or empty, is not kept.
    func keep(_ partial: ResumableData, for key: String) {
        guard !partial.data.isEmpty, partial.data.count <= byteLimit else { return }
        state.withLock { state in
            state.remove(key)
            while state.byteCount + partial.data.count > byteLimit, let oldest = state.order.first {
                state.remove(oldest)
            }
            state.entries[key] = partial
            state.order.append(key)
            state.byteCount += partial.data.count
        }
    }

    /// Removes and returns what was kept for `key`.
    func take(for key: String) -> ResumableData? {
        state.withLock { state in
            let entry = state.entries[key]
            state.remove(key)
            return entry
        }
    }

    /// Forgets everything.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
