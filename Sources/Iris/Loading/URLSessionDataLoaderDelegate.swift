import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionDataLoader``: routes each task's events to the stream of
/// the load that started it, keyed by `taskIdentifier`.
final class URLSessionDataLoaderDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Continuation = AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation

    private let loads = LockedState<[Int: DataLoadState]>([:])

    /// Routes `task`'s events to `continuation` from now on.
    func register(_ task: URLSessionTask, url: URL?, continuation: Continuation) {
        loads.withLock { $0[task.taskIdentifier] = DataLoadState(url: url, continuation: continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        let status = (response as? HTTPURLResponse)?.statusCode
        let expected = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        if let status, !(200...299).contains(status) {
            finish(id, throwing: ImageError.httpStatus(code: status, url: response.url ?? url(of: id)))
            completionHandler(.cancel)
            return
        }
        let continuation = loads.withLock { loads -> Continuation? in
            loads[id]?.expectedLength = expected
            return loads[id]?.continuation
        }
        continuation?.yield(.response(statusCode: status, expectedLength: expected, mimeType: response.mimeType))
        completionHandler(continuation == nil ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
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
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard var load = loads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
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
        loads.withLock { $0.removeValue(forKey: id) }?.continuation.finish(throwing: error)
    }
}
