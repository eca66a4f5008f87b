import Foundation

/// What a shared operation tells its subscribers.
enum StageEvent<Value: Sendable>: Sendable {
    /// Bytes received so far.
    case progress(ImageTask.Progress)
    /// The data so far, when a progressive JPEG has completed another scan (data stage).
    case partialData(Data)
    /// A progressive preview (decode and processing stages).
    case preview(LoadedImage)
    /// The result; the last event.
    case finished(Result<Value, ImageError>)
}

/// One piece of work shared by every subscriber that asked for the same key.
///
/// The operation runs at the highest priority of its subscribers and tells its work when that
/// changes. It is cancelled when its last subscriber leaves, never before. The work reports
/// through ``publish(_:)`` and ``finish(_:)``; once it has finished or been cancelled, further
/// reports are ignored.
///
/// Locking: priority handlers run while this operation's lock is held, so that the work always
/// sees priorities in order. They may only reach *upstream* (operations this one depends on,
/// and work queues), never downstream, which keeps the lock order acyclic. Observers, cancel
/// handlers and `onEnd` run without the lock.
final class SharedOperation<Value: Sendable>: Sendable {
    /// Receives the operation's events.
    typealias Observer = @Sendable (StageEvent<Value>) -> Void

    private struct Subscriber {
        var priority: ImageRequest.Priority
        var observer: Observer
    }

    private enum Phase { case active, finished, cancelled }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var priority: ImageRequest.Priority
        var phase = Phase.active
        var lastProgress: ImageTask.Progress?
        var cancelHandlers: [@Sendable () -> Void] = []
        var priorityHandlers: [@Sendable (ImageRequest.Priority) -> Void] = []
    }

    private let state: LockedState<State>
    /// Called once when the operation finishes or is cancelled (removes it from its stage).
    private let onEnd: @Sendable (SharedOperation<Value>) -> Void

    init(priority: ImageRequest.Priority, onEnd: @escaping @Sendable (SharedOperation<Value>) -> Void) {
        state = LockedState(State(priority: priority))
        self.onEnd = onEnd
    }

    /// The highest priority among the subscribers.
    var priority: ImageRequest.Priority { state.withLock { $0.priority } }

    /// Whether the last subscriber left before the work finished.
    var isCancelled: Bool { state.withLock { $0.phase == .cancelled } }

    /// Whether the operation has finished or been cancelled.
    var isEnded: Bool { state.withLock { $0.phase != .active } }

    // MARK: Subscribers

    /// Adds a subscriber. Returns its id and the latest progress, or nil when the operation has
    /// already ended (the caller then starts a new one).
    func addSubscriber(priority: ImageRequest.Priority, observer: @escaping Observer) -> (id: Int, progress: ImageTask.Progress?)? {
        state.withLock { state in
            guard state.phase == .active else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(priority: priority, observer: observer)
            Self.updatePriority(&state)
            return (id, state.lastProgress)
        }
    }

    /// Removes a subscriber; cancels the operation when it was the last one.
    func removeSubscriber(_ id: Int) {
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            guard state.phase == .active, state.subscribers.removeValue(forKey: id) != nil else { return nil }
            guard state.subscribers.isEmpty else {
                Self.updatePriority(&state)
                return nil
            }
            state.phase = .cancelled
            defer { state.cancelHandlers = []; state.priorityHandlers = [] }
            return state.cancelHandlers
        }
        guard let handlers else { return }
        onEnd(self)
        for handler in handlers { handler() }
    }

    /// Changes one subscriber's priority.
    func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
        state.withLock { state in
            guard state.phase == .active, state.subscribers[id] != nil else { return }
            state.subscribers[id]?.priority = priority
            Self.updatePriority(&state)
        }
    }

    private static func updatePriority(_ state: inout State) {
        guard let highest = state.subscribers.values.map(\.priority).max(), highest != state.priority else { return }
        state.priority = highest
        for handler in state.priorityHandlers { handler(highest) }
    }

    // MARK: The work's side

    /// Runs `handler` when the operation is cancelled; at once if it already is.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            switch state.phase {
            case .active: state.cancelHandlers.append(handler); return false
            case .cancelled: return true
            case .finished: return false
            }
        }
        if runNow { handler() }
    }

    /// Calls `handler` with the current priority now and again whenever it changes.
    /// `handler` may only reach upstream work (see the type's note on locking).
    func onPriorityChange(_ handler: @escaping @Sendable (ImageRequest.Priority) -> Void) {
        state.withLock { state in
            guard state.phase == .active else { return }
            state.priorityHandlers.append(handler)
            handler(state.priority)
        }
    }

    /// Tells every subscriber about progress.
    func publish(_ progress: ImageTask.Progress) {
        let observers = state.withLock { state -> [Observer] in
            guard state.phase == .active else { return [] }
            state.lastProgress = progress
            return state.subscribers.values.map(\.observer)
        }
        for observer in observers { observer(.progress(progress)) }
    }

    /// Tells every subscriber about partial data or a preview; ignored once the operation has
    /// ended. Late subscribers do not get earlier previews.
    func publishInterim(_ event: StageEvent<Value>) {
        let observers = state.withLock { state -> [Observer] in
            state.phase == .active ? state.subscribers.values.map(\.observer) : []
        }
        for observer in observers { observer(event) }
    }

    /// Delivers the result to every subscriber and ends the operation.
    func finish(_ result: Result<Value, ImageError>) {
        let observers = state.withLock { state -> [Observer]? in
            guard state.phase == .active else { return nil }
            state.phase = .finished
            defer {
                state.subscribers = [:]
                state.cancelHandlers = []
                state.priorityHandlers = []
            }
            return state.subscribers.values.map(\.observer)
        }
        guard let observers else { return }
        onEnd(self)
        for observer in observers { observer(.finished(result)) }
    }
}

/// One subscriber's hold on a ``SharedOperation``.
struct StageSubscription<Value: Sendable>: Sendable {
    fileprivate let operation: SharedOperation<Value>
    fileprivate let id: Int

    /// Leaves the operation (cancelling it if this was the last subscriber). Nothing more is
    /// delivered to this subscriber's observer after it returns, except events already under way.
    func cancel() { operation.removeSubscriber(id) }

    /// Changes this subscriber's priority; the operation runs at the highest of them.
    func setPriority(_ priority: ImageRequest.Priority) { operation.setPriority(priority, of: id) }
}

/// Coalesces identical work in flight: subscribing to a key that already has a running
/// operation joins it instead of starting another.
final class CoalescingStage<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let operations = LockedState<[Key: SharedOperation<Value>]>([:])

    /// Operations in flight.
    var count: Int { operations.withLock { $0.count } }

    /// Joins the operation for `key`, or makes one and calls `start` with it (synchronously,
    /// outside the stage's lock) to begin its work.
    func subscribe(to key: Key, priority: ImageRequest.Priority,
                   observer: @escaping SharedOperation<Value>.Observer,
                   start: (SharedOperation<Value>) -> Void) -> StageSubscription<Value> {
        let (operation, id, progress, isNew) = operations.withLock { table in
            if let existing = table[key], let (id, progress) = existing.addSubscriber(priority: priority, observer: observer) {
                return (existing, id, progress, false)
            }
            let operation = SharedOperation<Value>(priority: priority) { [self] ended in
                operations.withLock { table in
                    if table[key] === ended { table[key] = nil }
                }
            }
            // A fresh operation always accepts its first subscriber.
            let id = operation.addSubscriber(priority: priority, observer: observer)?.id ?? 0
            table[key] = operation
            return (operation, id, ImageTask.Progress?.none, true)
        }
        if let progress { observer(.progress(progress)) }
        if isNew { start(operation) }
        return StageSubscription(operation: operation, id: id)
    }
}
