import Foundation

// The stage machine: what every stage shares, in one file.
//
// - `PipelineStage`: one stage's work for one key, shared by its subscribers. It runs at the
//   highest subscriber priority, passes that on to the work it started (queued jobs, the
//   subscription upstream) and cancels that work when its last subscriber leaves.
// - `follow(_:partial:success:)`: subscribes upstream and forwards progress and failures, so a
//   stage's `start()` holds only its own work.
// - `StageRegistry` (coalescing: one stage per key in flight) and `StageSubscription` (one
//   subscriber's hold).
// - `StageWaiter`: a caller awaiting a stage's result without an `ImageTask`.
//
// Which stages exist and how they connect is `PipelineGraph.swift`'s business.

/// What a stage tells its subscribers. `Partial` is what the stage has before its result: the
/// data so far (fetching) or a preview (decoding, processing); `Never` for a stage without one.
enum StageEvent<Output: Sendable, Partial: Sendable>: Sendable {
    /// Bytes received so far (passed on from the fetch stage).
    case progress(ImageTask.Progress)
    /// Something before the result; late subscribers do not get earlier ones.
    case partial(Partial)
    /// The result; the last event.
    case finished(Result<Output, ImageError>)
}

/// Work a stage started and drives: a job in a ``WorkQueue`` or a subscription to the stage
/// upstream. It follows the stage's priority and is cancelled with the stage.
protocol StageDependency: Sendable {
    /// Moves the work to `priority`.
    func setPriority(_ priority: ImageRequest.Priority)
    /// Stops the work (or leaves it, when it is shared).
    func cancel()
}

/// The base of every stage. An instance is one stage's work for one key, shared by every
/// subscriber that asked for that key (see ``StageRegistry``).
///
/// The base wires, once for all stages, what sharing needs: the stage runs at the highest
/// priority of its subscribers and passes changes on to its dependencies (the queued jobs and
/// upstream subscription it started through ``enqueue(in:_:)`` and ``follow(_:partial:success:)``); when
/// the last subscriber leaves before the result, the stage is cancelled and so are they. A
/// subclass overrides ``start()`` and reports through ``publish(_:)``, ``publishPartial(_:)``
/// and ``finish(_:)``; once the stage has ended, further reports are ignored.
///
/// Subclasses restate `@unchecked Sendable`: their own stored properties are constants of
/// sendable types; the mutable state is this base's, behind its lock.
///
/// Locking: dependencies are told about priority changes while this stage's lock is held, so
/// they always see priorities in order. Dependencies are upstream (stages this one subscribed
/// to, and work queues), never downstream, which keeps the lock order acyclic. Observers,
/// cancellation and the registry's end handler run without the lock.
class PipelineStage<Output: Sendable, Partial: Sendable>: @unchecked Sendable {
    typealias Event = StageEvent<Output, Partial>
    /// Receives the stage's events.
    typealias Observer = @Sendable (Event) -> Void

    private struct Subscriber {
        let id: Int
        var priority: ImageRequest.Priority
        let observer: Observer
    }

    private enum Phase { case active, finished, cancelled }

    private struct State {
        var subscribers: [Subscriber] = []
        var nextID = 0
        var priority = ImageRequest.Priority.normal
        var phase = Phase.active
        var lastProgress: ImageTask.Progress?
        var dependencies: [any StageDependency] = []
        /// Removes the stage from its registry; called once, when it ends.
        var onEnd: (@Sendable () -> Void)?

        var observers: [Observer] { subscribers.map(\.observer) }
    }

    private let state = LockedState(State())

    /// The graph whose configuration, queues and upstream stages the stage uses.
    let graph: PipelineGraph
    /// The request that started the stage (requests joining it later share its key).
    let request: ImageRequest
    /// The request's keys (the stage's own key among them).
    let keys: ImageRequestKeys

    init(graph: PipelineGraph, request: ImageRequest, keys: ImageRequestKeys) {
        self.graph = graph
        self.request = request
        self.keys = keys
    }

    /// Begins the work. Called once, after the first subscriber has joined, outside any lock.
    func start() {
        preconditionFailure("\(Self.self) must override start()")
    }

    /// The highest priority among the subscribers.
    final var priority: ImageRequest.Priority { state.withLock { $0.priority } }

    /// Whether the stage has finished or been cancelled.
    final var isEnded: Bool { state.withLock { $0.phase != .active } }

    // MARK: Dependencies

    /// Runs `job` in `queue` at this stage's priority, following it; the job is cancelled (taken
    /// off the queue, or its task cancelled) when the stage is. Enqueued with this stage's lock
    /// held (the queue's lock after the stage's, the order priority changes take), so no change
    /// of priority comes between; an ended stage enqueues nothing.
    final func enqueue(in queue: WorkQueue, _ job: @escaping WorkQueue.Job) {
        state.withLock { state in
            guard state.phase == .active else { return }
            state.dependencies.append(queue.enqueue(priority: state.priority, job))
        }
    }

    /// Subscribes to the stage upstream and forwards what is not this
    /// stage's own work: progress is published, a failure finishes this stage. `partial` gets the
    /// upstream's partial results, `success` its result.
    final func follow<Upstream, UpstreamPartial>(
        _ upstream: (ImageRequest, ImageRequestKeys, ImageRequest.Priority, @escaping PipelineStage<Upstream, UpstreamPartial>.Observer)
            -> StageSubscription<Upstream, UpstreamPartial>,
        partial: @escaping @Sendable (UpstreamPartial) -> Void = { _ in },
        success: @escaping @Sendable (Upstream) -> Void
    ) {
        let priority = self.priority
        adopt(
            upstream(request, keys, priority) { [self] event in
                switch event {
                case .progress(let progress): publish(progress)
                case .partial(let value): partial(value)
                case .finished(.failure(let error)): finish(.failure(error))
                case .finished(.success(let value)): success(value)
                }
            }, startedAt: priority)
    }

    private func adopt(_ dependency: some StageDependency, startedAt priority: ImageRequest.Priority) {
        let isActive = state.withLock { state in
            guard state.phase == .active else { return false }
            state.dependencies.append(dependency)
            if state.priority != priority { dependency.setPriority(state.priority) }
            return true
        }
        // Ended meanwhile: a finished stage no longer needs it, a cancelled one must stop it.
        if !isActive { dependency.cancel() }
    }

    // MARK: Reports

    /// Tells every subscriber about progress (kept for subscribers joining later).
    final func publish(_ progress: ImageTask.Progress) {
        let observers = state.withLock { state -> [Observer] in
            guard state.phase == .active else { return [] }
            state.lastProgress = progress
            return state.observers
        }
        for observer in observers { observer(.progress(progress)) }
    }

    /// Tells every subscriber about a partial result.
    final func publishPartial(_ partial: Partial) {
        let observers = state.withLock { $0.phase == .active ? $0.observers : [] }
        for observer in observers { observer(.partial(partial)) }
    }

    /// Delivers the result to every subscriber and ends the stage. Dependencies are let go, not
    /// cancelled: the one that reports is usually still on its way out.
    final func finish(_ result: Result<Output, ImageError>) {
        let ended = state.withLock { state -> ([Observer], (@Sendable () -> Void)?)? in
            guard state.phase == .active else { return nil }
            state.phase = .finished
            defer {
                state.subscribers = []
                state.dependencies = []
                state.onEnd = nil
            }
            return (state.observers, state.onEnd)
        }
        guard let (observers, onEnd) = ended else { return }
        onEnd?()
        for observer in observers { observer(.finished(result)) }
    }

    // MARK: Subscribers (the registry's and subscriptions' side)

    /// Adds the subscriber that makes a new stage, with what removes the stage from its
    /// registry when it ends. Returns the subscriber's id.
    final func addFirstSubscriber(
        priority: ImageRequest.Priority, observer: @escaping Observer, onEnd: @escaping @Sendable () -> Void
    ) -> Int {
        state.withLock { state in
            state.onEnd = onEnd
            return Self.append(priority: priority, observer: observer, to: &state)
        }
    }

    /// Adds a subscriber. Returns its id and the latest progress, or nil when the stage has
    /// already ended (the caller then starts a new one).
    final func addSubscriber(
        priority: ImageRequest.Priority,
        observer: @escaping Observer
    ) -> (id: Int, progress: ImageTask.Progress?)? {
        state.withLock { state in
            guard state.phase == .active else { return nil }
            return (Self.append(priority: priority, observer: observer, to: &state), state.lastProgress)
        }
    }

    /// Adds a subscriber to `state`; its id.
    private static func append(priority: ImageRequest.Priority, observer: @escaping Observer, to state: inout State) -> Int {
        let id = state.nextID
        state.nextID += 1
        state.subscribers.append(Subscriber(id: id, priority: priority, observer: observer))
        updatePriority(&state)
        return id
    }

    /// Removes a subscriber; cancels the stage when it was the last one.
    final func removeSubscriber(_ id: Int) {
        let cancelled = state.withLock { state -> ([any StageDependency], (@Sendable () -> Void)?)? in
            guard state.phase == .active, let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return nil }
            state.subscribers.remove(at: index)
            guard state.subscribers.isEmpty else {
                Self.updatePriority(&state)
                return nil
            }
            state.phase = .cancelled
            defer {
                state.dependencies = []
                state.onEnd = nil
            }
            return (state.dependencies, state.onEnd)
        }
        guard let (dependencies, onEnd) = cancelled else { return }
        onEnd?()
        for dependency in dependencies { dependency.cancel() }
    }

    /// Changes one subscriber's priority.
    final func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
        state.withLock { state in
            guard state.phase == .active, let index = state.subscribers.firstIndex(where: { $0.id == id }),
                state.subscribers[index].priority != priority
            else { return }
            state.subscribers[index].priority = priority
            Self.updatePriority(&state)
        }
    }

    private static func updatePriority(_ state: inout State) {
        guard let highest = state.subscribers.lazy.map(\.priority).max(), highest != state.priority else { return }
        state.priority = highest
        for dependency in state.dependencies { dependency.setPriority(highest) }
    }
}

/// One subscriber's hold on a ``PipelineStage``.
struct StageSubscription<Output: Sendable, Partial: Sendable>: StageDependency {
    fileprivate let stage: PipelineStage<Output, Partial>
    fileprivate let id: Int
    /// Whether the subscriber joined a stage already running for its key (coalesced) rather
    /// than starting it.
    let joinedStageInFlight: Bool

    /// Leaves the stage (cancelling it if this was the last subscriber). Nothing more is
    /// delivered to this subscriber's observer after it returns, except events already under way.
    func cancel() { stage.removeSubscriber(id) }

    /// Changes this subscriber's priority; the stage runs at the highest of them.
    func setPriority(_ priority: ImageRequest.Priority) { stage.setPriority(priority, of: id) }
}

/// The stages of one kind in flight, by key (coalescing): subscribing to a key that already has
/// a running stage joins it instead of starting another.
final class StageRegistry<Key: Hashable & Sendable, Output: Sendable, Partial: Sendable>: Sendable {
    typealias Stage = PipelineStage<Output, Partial>

    private let stages = LockedState<[Key: Stage]>([:])

    /// Stages in flight.
    var count: Int { stages.withLock { $0.count } }

    /// Joins the stage for `key`, or makes one with `make` and starts it (outside the registry's
    /// lock). The latest progress, if any, is delivered to a joining subscriber at once.
    func subscribe(
        to key: Key, priority: ImageRequest.Priority, observer: @escaping Stage.Observer,
        make: () -> Stage
    ) -> StageSubscription<Output, Partial> {
        let (stage, id, progress, isNew) = stages.withLock { table in
            if let existing = table[key], let (id, progress) = existing.addSubscriber(priority: priority, observer: observer) {
                return (existing, id, progress, false)
            }
            let stage = make()
            let id = stage.addFirstSubscriber(priority: priority, observer: observer) { [self] in
                stages.withLock { table in
                    if table[key] === stage { table[key] = nil }
                }
            }
            table[key] = stage
            return (stage, id, ImageTask.Progress?.none, true)
        }
        if let progress { observer(.progress(progress)) }
        if isNew { stage.start() }
        return StageSubscription(stage: stage, id: id, joinedStageInFlight: !isNew)
    }
}

/// One caller awaiting a stage's result directly, without an ``ImageTask`` (and its streams):
/// ``ImagePipeline/image(for:)`` and ``ImagePipeline/data(for:)``. The first result, or the
/// cancellation of the calling task, wins and leaves the shared work.
final class StageWaiter<Output: Sendable, Partial: Sendable>: Sendable {
    typealias Subscription = StageSubscription<Output, Partial>

    private struct State {
        var continuation: CheckedContinuation<Result<Output, ImageError>, Never>?
        var subscription: Subscription?
        var result: Result<Output, ImageError>?
        var joinedStageInFlight = false
    }

    private let state = LockedState(State())

    private init() {}

    /// Subscribes with `subscribe` and waits for the result, on the caller's executor.
    /// Cancelling the calling task gives ``ImageError/cancelled``.
    nonisolated(nonsending) static func result(
        _ subscribe: (@escaping PipelineStage<Output, Partial>.Observer) -> Subscription
    ) async -> Result<Output, ImageError> {
        await wait(for: subscribe).result
    }

    /// ``result(_:)``, and whether the caller joined the stage already running for its key.
    nonisolated(nonsending) static func resultAndSharing(
        _ subscribe: (@escaping PipelineStage<Output, Partial>.Observer) -> Subscription
    ) async -> (result: Result<Output, ImageError>, joinedStageInFlight: Bool) {
        let (result, waiter) = await wait(for: subscribe)
        return (result, waiter.state.withLock { $0.joinedStageInFlight })
    }

    /// Subscribes and waits; the result, and the waiter (which knows how it subscribed).
    private nonisolated(nonsending) static func wait(
        for subscribe: (@escaping PipelineStage<Output, Partial>.Observer) -> Subscription
    ) async -> (result: Result<Output, ImageError>, waiter: StageWaiter) {
        let waiter = StageWaiter()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Output, ImageError>, Never>) in
                waiter.wait(with: continuation)
                waiter.attach(
                    subscribe { event in
                        // The stage has ended: there is nothing left to leave.
                        if case .finished(let result) = event { waiter.finish(result, leavingStage: false) }
                    })
            }
        } onCancel: {
            waiter.finish(.failure(.cancelled), leavingStage: true)
        }
        return (result, waiter)
    }

    private func wait(with continuation: CheckedContinuation<Result<Output, ImageError>, Never>) {
        let ready = state.withLock { state -> Result<Output, ImageError>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    private func attach(_ subscription: Subscription) {
        let isDone = state.withLock { state -> Bool in
            state.joinedStageInFlight = subscription.joinedStageInFlight
            if state.result != nil { return true }
            state.subscription = subscription
            return false
        }
        if isDone { subscription.cancel() }
    }

    /// Ends the wait with `result`; `leavingStage`: the waiter leaves the stage too (a
    /// cancelled caller), which a result from the stage itself does not need (it has ended).
    private func finish(_ result: Result<Output, ImageError>, leavingStage: Bool) {
        let ended = state.withLock { state -> (CheckedContinuation<Result<Output, ImageError>, Never>?, Subscription?)? in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.continuation = nil
                state.subscription = nil
            }
            return (state.continuation, state.subscription)
        }
        guard let (continuation, subscription) = ended else { return }
        // Leaving running shared work may cancel it.
        if leavingStage { subscription?.cancel() }
        continuation?.resume(returning: result)
    }
}
