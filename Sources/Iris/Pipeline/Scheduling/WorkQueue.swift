/// Runs async jobs with bounded concurrency, highest priority first and first-in first-out
/// within a priority.
///
/// A queued job's priority can be changed (it moves in the queue). Cancelling a job removes it
/// from the queue at once; cancelling a running job cancels its `Task` and frees its slot at
/// once, without waiting for the job to notice.
final class WorkQueue: Sendable {
    /// A job: runs on a detached task, off the caller's executor.
    typealias Job = @Sendable () async -> Void

    /// Refers to one enqueued job. A stage that enqueues a job drives it through this handle
    /// (see ``PipelineStage``).
    struct Handle: StageDependency {
        fileprivate let queue: WorkQueue
        fileprivate let id: Int

        /// Removes the job from the queue, or cancels it and frees its slot if it is running.
        func cancel() { queue.cancel(id) }

        /// Moves a queued job to `priority`; no effect once it runs.
        func setPriority(_ priority: ImageRequest.Priority) { queue.setPriority(priority, of: id) }
    }

    /// The most jobs running at once.
    let maxConcurrent: Int

    private struct Record {
        var priority: ImageRequest.Priority
        let sequence: Int
        var generation = 0
        var job: Job?
        var task: Task<Void, Never>?
        var isRunning: Bool { task != nil }
    }

    /// A heap entry; stale once its record is gone, running, or has a newer generation.
    private struct Entry: Ranked {
        let priority: ImageRequest.Priority
        let sequence: Int
        let id: Int
        let generation: Int

        /// Runs first: higher priority first, then earlier arrival.
        func outranks(_ other: Entry) -> Bool {
            priority != other.priority ? priority > other.priority : sequence < other.sequence
        }
    }

    private struct State {
        var records: [Int: Record] = [:]
        var heap = PriorityHeap<Entry>()
        var running = 0
        var queued = 0
        var nextID = 0
    }

    private let state = LockedState(State())

    /// Makes a queue running at most `maxConcurrent` jobs at once (at least one).
    init(maxConcurrent: Int) {
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Jobs waiting for a slot.
    var queuedCount: Int { state.withLock { $0.queued } }
    /// Jobs holding a slot.
    var runningCount: Int { state.withLock { $0.running } }

    /// Adds `job` at `priority`; it starts as soon as a slot is free and nothing ranks above it.
    @discardableResult
    func enqueue(priority: ImageRequest.Priority, _ job: @escaping Job) -> Handle {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let record = Record(priority: priority, sequence: id, job: job)
            state.queued += 1
            if state.queued == 1, state.running < maxConcurrent {
                start(id, record, &state)  // a free slot and nothing waiting: no need to rank it
            } else {
                state.records[id] = record
                state.heap.insert(Entry(priority: priority, sequence: id, id: id, generation: 0))
                startJobs(&state)
            }
            return id
        }
        return Handle(queue: self, id: id)
    }

    private func cancel(_ id: Int) {
        let task: Task<Void, Never>? = state.withLock { state in
            guard let record = state.records.removeValue(forKey: id) else { return nil }
            if record.isRunning {
                state.running -= 1
                startJobs(&state)
            } else {
                state.queued -= 1
                compactIfNeeded(&state)
            }
            return record.task
        }
        // Outside the lock: cancelling runs the task's cancellation handlers synchronously.
        task?.cancel()
    }

    private func setPriority(_ priority: ImageRequest.Priority, of id: Int) {
        state.withLock { state in
            guard var record = state.records[id], !record.isRunning, record.priority != priority else { return }
            record.priority = priority
            record.generation += 1
            state.records[id] = record
            state.heap.insert(Entry(priority: priority, sequence: record.sequence, id: id, generation: record.generation))
            compactIfNeeded(&state)
        }
    }

    private func finished(_ id: Int) {
        state.withLock { state in
            guard let record = state.records[id], record.isRunning else { return }
            state.records[id] = nil
            state.running -= 1
            startJobs(&state)
        }
    }

    /// Starts the best queued jobs while slots are free. Called with the lock held; creating a
    /// task only schedules it.
    private func startJobs(_ state: inout State) {
        while state.running < maxConcurrent, state.queued > 0, let entry = state.heap.popFirst() {
            guard let record = state.records[entry.id], !record.isRunning, record.generation == entry.generation else { continue }
            start(entry.id, record, &state)
        }
    }

    /// Starts queued job `id` (its `record`) in a slot. Called with the lock held.
    private func start(_ id: Int, _ record: Record, _ state: inout State) {
        var record = record
        guard let job = record.job else { return }
        record.job = nil
        record.task = Task.detached(priority: record.priority.taskPriority) { [self] in
            await job()
            finished(id)
        }
        state.records[id] = record
        state.queued -= 1
        state.running += 1
    }

    /// Drops stale heap entries once they outnumber the live ones.
    private func compactIfNeeded(_ state: inout State) {
        guard state.heap.count > 32, state.heap.count > 2 * state.queued else { return }
        let records = state.records
        state.heap.retain { entry in
            guard let record = records[entry.id] else { return false }
            return !record.isRunning && record.generation == entry.generation
        }
    }
}
