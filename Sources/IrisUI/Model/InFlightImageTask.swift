import Iris

/// The pipeline task a model waits on, cancellable from the model's `deinit` (which is not on
/// the main actor).
final class InFlightImageTask: Sendable {
    private let state = LockedState<ImageTask?>(nil)

    var task: ImageTask? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Cancels the task, if any, and forgets it.
    func cancel() {
        state.withLock { task -> ImageTask? in
            defer { task = nil }
            return task
        }?.cancel()
    }
}
