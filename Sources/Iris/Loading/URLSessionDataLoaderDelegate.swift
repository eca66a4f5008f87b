import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionDataLoader``: routes each task's events to the stream of
/// the load that started it, keyed by `taskIdentifier`.
///
/// It also keeps each load's idle timeout itself (a watchdog timer per load, pushed back by the
/// response and each piece of the body) rather than trusting the session's: swift-corelibs-
/// foundation truncates `timeoutInterval` to whole seconds, so a 0.5 s timeout fails every
/// request at once and 1.9 s acts as 1 s. The session's own timeout stays as a backstop, set
/// above this one. The watchdog runs on the loader's ``LoadClock`` (real time, or a test's).
final class URLSessionDataLoaderDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Continuation = AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation

    private let loads = LockedState<[Int: DataLoadState]>([:])
    private let clock: LoadClock

    init(clock: LoadClock = .continuous) {
        self.clock = clock
    }

    /// Routes `task`'s events to `continuation` from now on; with a `timeout`, ends the load with
    /// a timed-out error once that many seconds pass without a response or body. Call before
    /// resuming `task`.
    func register(
        _ task: URLSessionTask, url: URL?, timeout: TimeInterval? = nil, byteLimit: Int? = nil,
        continuation: Continuation
    ) {
        let id = task.taskIdentifier
        var load = DataLoadState(url: url, timeout: timeout, clock: clock, byteLimit: byteLimit, continuation: continuation)
        load.task = task
        loads.withLock { loads in
            // Started once stored, so it always finds its load.
            if let deadline = load.idleDeadline {
                load.watchdog = Task { [weak self, clock] in
                    var deadline = deadline
                    while true {
                        do { try await clock.sleep(deadline) } catch { return }  // cancelled: the load ended
                        guard let next = self?.checkIdle(id) else { return }
                        deadline = next
                    }
                }
            }
            loads[id] = load
        }
    }

    /// The watchdog of load `id` woke: ends the load if nothing arrived for its timeout and
    /// returns nil, else returns the new deadline to wait for.
    private func checkIdle(_ id: Int) -> Duration? {
        let (expired, next) = loads.withLock { loads -> (DataLoadState?, Duration?) in
            guard let load = loads[id], let deadline = load.idleDeadline else { return (nil, nil) }
            if clock.now() < deadline { return (nil, deadline) }
            return (remove(id, from: &loads), nil)
        }
        if let expired {
            expired.continuation.finish(throwing: expired.failure(for: URLError(.timedOut)))
            expired.task?.cancel()
        }
        return next
    }

    /// Removes load `id` and stops its watchdog.
    private func remove(_ id: Int, from loads: inout [Int: DataLoadState]) -> DataLoadState? {
        let load = loads.removeValue(forKey: id)
        load?.watchdog?.cancel()
        return load
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let described = DataLoadingResponse(response)
        let status = described.statusCode
        let expected = described.expectedLength
        guard let load = loads.withLock({ $0[id] }) else { return completionHandler(.cancel) }

        if status == 304 {
            // Not Modified: the answer to a conditional request, whose headers renew the cached
            // entry; it has no body.
            _ = loads.withLock { remove(id, from: &$0) }
            load.continuation.yield(.response(described))
            load.continuation.finish()
            completionHandler(.cancel)
            return
        }
        if let status, !(200...299).contains(status) {
            finish(id, throwing: ImageError.httpStatus(code: status, url: response.url ?? url(of: id)))
            completionHandler(.cancel)
            return
        }
        if let limit = load.byteLimit, let expected, expected > limit {
            finish(id, throwing: ImageError.overLimit(.encodedBytes(bytes: expected, limit: limit)))
            completionHandler(.cancel)
            return
        }
        loads.withLock { loads in
            loads[id]?.expectedLength = expected
            loads[id]?.hasResponse = true
            loads[id]?.noteActivity()
            // A range does not start the resource: its first bytes tell nothing of the format.
            if status == 206 { loads[id]?.skipsFormatCheck() }
        }
        load.continuation.yield(.response(described))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        deliver(data, of: dataTask)
    }

    /// Passes the next piece of `task`'s body on (once the first bytes show it is an image).
    private func deliver(_ data: Data, of task: URLSessionDataTask) {
        let id = task.taskIdentifier
        let action = loads.withLock { loads -> (Continuation, DataLoadState.Action)? in
            guard var load = loads[id] else { return nil }
            let action = load.received(data)
            loads[id] = load
            return (load.continuation, action)
        }
        guard let (continuation, action) = action else { return }
        switch action {
        case .wait:
            break
        case .yield(let chunk):
            continuation.yield(.chunk(chunk))
        case .reject(let format):
            finish(id, throwing: ImageError.notAnImage(format, url: url(of: id)))
            task.cancel()
        case .overLimit(let received, let limit):
            finish(id, throwing: ImageError.overLimit(.encodedBytes(bytes: received, limit: limit)))
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard var load = loads.withLock({ remove(task.taskIdentifier, from: &$0) }) else { return }
        if let error {
            load.continuation.finish(throwing: load.failure(for: error))
            return
        }
        switch load.completed() {
        case .success(let rest):
            if let rest { load.continuation.yield(.chunk(rest)) }
            load.continuation.finish()
        case .failure(let error):
            load.continuation.finish(throwing: error)
        }
    }

    private func url(of id: Int) -> URL? {
        loads.withLock { $0[id]?.url }
    }

    /// Finishes `id`'s stream with `error` and forgets the task.
    private func finish(_ id: Int, throwing error: ImageError) {
        loads.withLock { remove(id, from: &$0) }?.continuation.finish(throwing: error)
    }
}
