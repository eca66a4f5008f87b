import Foundation

/// Who is told when a revalidation replaces a source's bytes, by data key: what lets every view
/// and model showing an image of that source swap in the new one.
final class DataChangeObservers: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var handlers: [DataKey: [UInt64: @Sendable () -> Void]] = [:]
    }

    private let state = LockedState(State())

    /// Calls `handler` each time `data` changes, until the observation returned is cancelled or
    /// released.
    func add(for data: DataKey, _ handler: @escaping @Sendable () -> Void) -> ImageChangeObservation {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.handlers[data, default: [:]][state.nextID] = handler
            return state.nextID
        }
        return ImageChangeObservation { [weak self] in self?.remove(id, for: data) }
    }

    /// Tells everyone observing `data` (outside the lock).
    func notify(_ data: DataKey) {
        let handlers = state.withLock { $0.handlers[data].map { Array($0.values) } ?? [] }
        for handler in handlers { handler() }
    }

    /// How many observations are registered (for tests).
    var count: Int { state.withLock { $0.handlers.values.reduce(0) { $0 + $1.count } } }

    private func remove(_ id: UInt64, for data: DataKey) {
        state.withLock { state in
            state.handlers[data]?[id] = nil
            if state.handlers[data]?.isEmpty == true { state.handlers[data] = nil }
        }
    }
}

/// An observation of a source's changes (``ImagePipeline/observeChanges(of:_:)``): it lasts
/// until ``cancel()`` is called or it is released.
public final class ImageChangeObservation: Sendable {
    private let onCancel: LockedState<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = LockedState(onCancel)
    }

    /// Stops the observation; the handler is not called again.
    public func cancel() {
        let onCancel = onCancel.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        onCancel?()
    }

    deinit { cancel() }
}
