import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One network load of the data stage, resumable when the loader can (``ResumableDataLoading``)
/// and a store is configured: it starts from kept bytes, and keeps its own if it is cancelled.
struct ResumableLoad: Sendable {
    let request: URLRequest
    let loader: any DataLoading
    let store: ResumableDataStore?
    /// Passed to a loader that stops a body itself (``ByteLimitedDataLoading``).
    let byteLimit: Int?
    /// What the response said a resume needs: validator and whole length.
    private let validator = LockedState<(validator: String?, totalLength: Int?)>((nil, nil))

    init(request: URLRequest, loader: any DataLoading, store: ResumableDataStore?, byteLimit: Int? = nil) {
        self.request = request
        self.loader = loader
        self.store = store
        self.byteLimit = byteLimit
    }

    /// Kept bytes are stored by URL: the same resource, whatever the request's cache key.
    private var key: String? { request.url?.absoluteString }

    /// The loader's events: the whole body, resumed from kept bytes when there are some.
    func events() -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        let limited = loader as? any ByteLimitedDataLoading
        guard let store, let key, let resuming = loader as? any ResumableDataLoading else {
            return limited?.loadData(for: request, resuming: nil, byteLimit: byteLimit) { _, _ in }
                ?? loader.loadData(for: request)
        }
        let validator = self.validator
        let partial = store.take(for: key)
        let onValidator: @Sendable (String?, Int?) -> Void = { value, totalLength in
            validator.withLock { $0 = (value, totalLength) }
        }
        return limited?.loadData(for: request, resuming: partial, byteLimit: byteLimit, onValidator: onValidator)
            ?? resuming.loadData(for: request, resuming: partial, onValidator: onValidator)
    }

    /// Keeps `data` (the body so far) for a later load, if the response allows resuming.
    func keep(_ data: Data) {
        guard let store, let key, !data.isEmpty else { return }
        let (validator, totalLength) = validator.withLock { $0 }
        guard let validator, totalLength.map({ data.count < $0 }) ?? true else { return }
        store.keep(ResumableData(data: data, validator: validator, totalLength: totalLength), for: key)
    }
}
