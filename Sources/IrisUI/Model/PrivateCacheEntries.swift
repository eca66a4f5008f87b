import Iris

/// The requests an image model loaded under keys private to its view (a `.data` source whose
/// id is not `Hashable`), removed from the caches when the key is replaced or the model goes:
/// nothing can ever ask for them again. Reachable from `deinit`.
final class PrivateCacheEntries: Sendable {
    private struct State {
        var privateDataKeys: Set<String> = []
        var requests: [(pipeline: ImagePipeline, request: ImageRequest)] = []
    }

    private let state = LockedState(State())

    /// Whether any private key was made.
    var isEmpty: Bool { state.withLock { $0.privateDataKeys.isEmpty } }

    /// Marks `dataKey` as private to this model.
    func addPrivateKey(_ dataKey: String) {
        _ = state.withLock { $0.privateDataKeys.insert(dataKey) }
    }

    /// Remembers that `request` (of data key `dataKey`) may be cached by `pipeline`, when its key
    /// is private.
    func noteLoad(_ request: ImageRequest, dataKey: String, pipeline: ImagePipeline) {
        state.withLock { state in
            guard state.privateDataKeys.contains(dataKey) else { return }
            state.requests.append((pipeline, request))
        }
    }

    /// Removes from the caches every remembered request whose data key is not `kept`.
    func removeAll(keepingDataKey kept: String? = nil) {
        let removed = state.withLock { state in
            var removed: [(pipeline: ImagePipeline, request: ImageRequest)] = []
            state.requests.removeAll { entry in
                guard entry.pipeline.dataKey(for: entry.request) != kept else { return false }
                removed.append(entry)
                return true
            }
            if let kept { state.privateDataKeys = state.privateDataKeys.filter { $0 == kept } } else { state.privateDataKeys = [] }
            return removed
        }
        for entry in removed { entry.pipeline.cache.remove(entry.request) }
    }

    /// How many requests are remembered.
    var count: Int { state.withLock { $0.requests.count } }
}
