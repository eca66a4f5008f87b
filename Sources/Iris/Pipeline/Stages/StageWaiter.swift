import Foundation

/// One caller awaiting a stage's result directly, without an ``ImageTask`` (and its streams):
/// ``ImagePipeline/image(for:)`` and ``ImagePipeline/data(for:)``. The first result, or the
/// cancellation of the calling task, wins and leaves the shared work.
final class StageWaiter<Output: Sendable, Partial: Sendable>: Sendable {
    typealias Subscription = StageSubscription<Output, Partial>

    private struct State {
        var continuation: CheckedContinuation<Result<Output, ImageError>, Never>?
        var subscription: Subscription?
        var result: Result<Output, ImageError>?
    }

    private let state = LockedState(State())

    private init() {}

    /// Subscribes with `subscribe` and waits for the result, on the caller's executor.
    /// Cancelling the calling task gives ``ImageError/cancelled``.
    nonisolated(nonsending) static func result(
        _ subscribe: (@escaping PipelineStage<Output, Partial>.Observer) -> Subscription
    ) async -> Result<Output, ImageError> {
        let waiter = StageWaiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Output, ImageError>, Never>) in
                waiter.wait(with: continuation)
                waiter.attach(subscribe { event in
                    if case .finished(let result) = event { waiter.finish(result) }
                })
            }
        } onCancel: {
            waiter.finish(.failure(.cancelled))
        }
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
            if state.result != nil { return true }
            state.subscription = subscription
            return false
        }
        if isDone { subscription.cancel() }
    }

    private func finish(_ result: Result<Output, ImageError>) {
        let ended = state.withLock { state -> (CheckedContinuation<Result<Output, ImageError>, Never>?, Subscription?)? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil; state.subscription = nil }
            return (state.continuation, state.subscription)
        }
        guard let (continuation, subscription) = ended else { return }
        // Leaving finished shared work is a no-op; leaving running work may cancel it.
        subscription?.cancel()
        continuation?.resume(returning: result)
    }
}
