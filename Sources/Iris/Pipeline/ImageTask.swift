/// One request running in an ``ImagePipeline``: its progress, its priority, its result.
///
/// Identical work is shared with other tasks (coalescing); cancelling this task only leaves that
/// shared work, which stops when no task needs it any more. Make one with
/// ``ImagePipeline/task(for:)``; it starts at once.
public final class ImageTask: Sendable {
    /// How much of the data has arrived.
    public struct Progress: Sendable, Hashable {
        /// Bytes received so far.
        public var completed: Int
        /// Bytes expected in all, when the server said.
        public var total: Int?

        /// Makes a progress value.
        public init(completed: Int, total: Int?) {
            self.completed = completed
            self.total = total
        }

        /// `completed / total` in 0…1, when the total is known.
        public var fractionCompleted: Double? {
            guard let total, total > 0 else { return nil }
            return min(1, Double(completed) / Double(total))
        }
    }

    /// The request this task loads.
    public let request: ImageRequest

    /// Progress of the download, as it arrives. Finishes when the task ends. Data from a cache,
    /// a file or a `.data` closure reports no progress.
    public let progress: AsyncStream<Progress>

    /// Progressive previews, when ``ImagePipeline/Configuration/isProgressiveDecodingEnabled``:
    /// a progressive JPEG downloading is decoded at the request's target after each completed
    /// scan, processors applied (``LoadedImage/isPreview`` is true). Keeps only the newest;
    /// finishes when the task ends.
    public let previews: AsyncStream<LoadedImage>

    private let progressContinuation: AsyncStream<Progress>.Continuation
    private let previewsContinuation: AsyncStream<LoadedImage>.Continuation

    private struct State {
        var priority: ImageRequest.Priority
        var result: Result<LoadedImage, ImageError>?
        var waiters: [CheckedContinuation<Result<LoadedImage, ImageError>, Never>] = []
        var subscription: StageSubscription<StageImage, LoadedImage>?
        var completionHandlers: [@Sendable (Result<LoadedImage, ImageError>) -> Void] = []
    }

    private let state: LockedState<State>

    init(request: ImageRequest) {
        self.request = request
        state = LockedState(State(priority: request.priority))
        (progress, progressContinuation) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(64))
        (previews, previewsContinuation) = AsyncStream.makeStream(of: LoadedImage.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Where the task's work goes in the pipeline's queues. Raising it raises the shared work it waits on (which runs at the
    /// highest priority of the tasks sharing it) and moves queued work forward.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let subscription = state.withLock { state -> StageSubscription<StageImage, LoadedImage>? in
                guard state.priority != newValue else { return nil }
                state.priority = newValue
                return state.subscription
            }
            subscription?.setPriority(newValue)
        }
    }

    /// The image, once loaded. Throws ``ImageError``, ``ImageError/cancelled`` when the task is
    /// cancelled. Cancelling the Swift task that awaits this cancels the image task.
    public var image: LoadedImage {
        get async throws(ImageError) {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoadedImage, ImageError>, Never>) in
                    let ready = state.withLock { state -> Result<LoadedImage, ImageError>? in
                        if let result = state.result { return result }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                cancel()
            }
            return try result.get()
        }
    }

    /// The result, once the task has ended.
    public var result: Result<LoadedImage, ImageError>? { state.withLock { $0.result } }

    /// Stops waiting for the image: the task ends with ``ImageError/cancelled``. Shared work
    /// goes on while other tasks need it.
    public func cancel() {
        complete(with: .failure(.cancelled))
    }

    // MARK: Pipeline side

    /// Connects the task to the shared work; cancels it at once if the task already ended.
    func attach(_ subscription: StageSubscription<StageImage, LoadedImage>) {
        let isEnded = state.withLock { state in
            if state.result != nil { return true }
            state.subscription = subscription
            return false
        }
        if isEnded { subscription.cancel() }
    }

    /// Handles an event of the image stage.
    func receive(_ event: StageEvent<StageImage, LoadedImage>) {
        switch event {
        case .progress(let progress): progressContinuation.yield(progress)
        case .partial(let preview): previewsContinuation.yield(preview.scaled(for: request))
        case .finished(let result): complete(with: result.map { $0.loadedImage(for: request) })
        }
    }

    /// Calls `handler` when the task ends (at once if it has).
    func onCompletion(_ handler: @escaping @Sendable (Result<LoadedImage, ImageError>) -> Void) {
        let result = state.withLock { state -> Result<LoadedImage, ImageError>? in
            if let result = state.result { return result }
            state.completionHandlers.append(handler)
            return nil
        }
        if let result { handler(result) }
    }

    /// Ends the task with `result`; the first result wins.
    func complete(with result: Result<LoadedImage, ImageError>) {
        let ended = state.withLock {
            state -> (
                StageSubscription<StageImage, LoadedImage>?, [CheckedContinuation<Result<LoadedImage, ImageError>, Never>],
                [@Sendable (Result<LoadedImage, ImageError>) -> Void]
            )? in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.subscription = nil
                state.waiters = []
                state.completionHandlers = []
            }
            return (state.subscription, state.waiters, state.completionHandlers)
        }
        guard let (subscription, waiters, handlers) = ended else { return }
        // Leaving finished shared work is a no-op; leaving running work may cancel it.
        subscription?.cancel()
        progressContinuation.finish()
        previewsContinuation.finish()
        for waiter in waiters { waiter.resume(returning: result) }
        for handler in handlers { handler(result) }
    }
}

extension ImageTask: Hashable {
    /// Whether both are the same task.
    public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }
    /// Hashes the task's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
