import Iris

/// The requests an image model loaded under keys private to its view (a `.data` source whose
/// id is not `Hashable`), removed from the caches when the key is replaced or the model goes:
/// nothing can ever ask for them again.
struct PrivateCacheEntries {
    private var privateDataKeys: Set<String> = []
    private var requests: [(pipeline: ImagePipeline, request: ImageRequest)] = []

    /// Whether any private key was made.
    var isEmpty: Bool { privateDataKeys.isEmpty }

    /// Marks `dataKey` as private to this model.
    mutating func addPrivateKey(_ dataKey: String) {
        privateDataKeys.insert(dataKey)
    }

    /// Remembers that `request` (of data key `dataKey`) may be cached by `pipeline`, when its key
    /// is private.
    mutating func noteLoad(_ request: ImageRequest, dataKey: String, pipeline: ImagePipeline) {
        guard privateDataKeys.contains(dataKey) else { return }
        requests.append((pipeline, request))
    }

    /// Removes from the caches every remembered request whose data key is not `kept`.
    mutating func removeAll(keepingDataKey kept: String? = nil) {
        var removed: [(pipeline: ImagePipeline, request: ImageRequest)] = []
        requests.removeAll { entry in
            guard entry.pipeline.dataKey(for: entry.request) != kept else { return false }
            removed.append(entry)
            return true
        }
        if let kept { privateDataKeys = privateDataKeys.filter { $0 == kept } } else { privateDataKeys = [] }
        for entry in removed { entry.pipeline.cache.remove(entry.request) }
    }

    /// How many requests are remembered.
    var count: Int { requests.count }
}
