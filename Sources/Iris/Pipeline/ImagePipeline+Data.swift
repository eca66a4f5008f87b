import Foundation

extension ImagePipeline {
    /// The original encoded bytes of `request`'s source: from the disk cache, or loaded (and then
    /// stored there), shared with image loads of the same data in flight. Cancelling the calling
    /// task leaves the shared load and throws ``ImageError/cancelled``.
    public func data(for request: ImageRequest) async throws(ImageError) -> Data {
        let waiter = DataWaiter()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, ImageError>, Never>) in
                waiter.wait(with: continuation)
                let subscription = subscribeData(request, priority: request.priority) { event in
                    if case .finished(let result) = event { waiter.finish(result) }
                }
                waiter.attach(subscription)
            }
        } onCancel: {
            waiter.finish(.failure(.cancelled))
        }
        return try result.get()
    }

    /// Starts from a configuration made by `configure`:
    /// `ImagePipeline { $0.dataCache = try? DataCache(directory: url) }`.
    public convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }
}

/// One ``ImagePipeline/data(for:)`` call: its continuation and its data-stage subscription; the
/// first result (or a cancel) wins and leaves the shared work.
private final class DataWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Data, ImageError>, Never>?
        var subscription: StageSubscription<Data>?
        var result: Result<Data, ImageError>?
    }

    private let state = LockedState(State())

    func wait(with continuation: CheckedContinuation<Result<Data, ImageError>, Never>) {
        let ready = state.withLock { state -> Result<Data, ImageError>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func attach(_ subscription: StageSubscription<Data>) {
        let isDone = state.withLock { state -> Bool in
            if state.result != nil { return true }
            state.subscription = subscription
            return false
        }
        if isDone { subscription.cancel() }
    }

    func finish(_ result: Result<Data, ImageError>) {
        let ended = state.withLock { state -> (CheckedContinuation<Result<Data, ImageError>, Never>?, StageSubscription<Data>?)? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil; state.subscription = nil }
            return (state.continuation, state.subscription)
        }
        guard let (continuation, subscription) = ended else { return }
        subscription?.cancel()
        continuation?.resume(returning: result)
    }
}
