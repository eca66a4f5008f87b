import Foundation

/// One subscriber's hold on a ``PipelineStage``.
struct StageSubscription<Output: Sendable, Partial: Sendable>: StageDependency {
    fileprivate let stage: PipelineStage<Output, Partial>
    fileprivate let id: Int

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
    func subscribe(to key: Key, priority: ImageRequest.Priority, observer: @escaping Stage.Observer,
                   make: () -> Stage) -> StageSubscription<Output, Partial> {
        let (stage, id, progress, isNew) = stages.withLock { table in
            if let existing = table[key], let (id, progress) = existing.addSubscriber(priority: priority, observer: observer) {
                return (existing, id, progress, false)
            }
            let stage = make()
            stage.setEndHandler { [self] in
                stages.withLock { table in
                    if table[key] === stage { table[key] = nil }
                }
            }
            // A fresh stage always accepts its first subscriber.
            let id = stage.addSubscriber(priority: priority, observer: observer)?.id ?? 0
            table[key] = stage
            return (stage, id, ImageTask.Progress?.none, true)
        }
        if let progress { observer(.progress(progress)) }
        if isNew { stage.start() }
        return StageSubscription(stage: stage, id: id)
    }
}
