import Foundation

/// The first stage: the original encoded bytes of a request's source, from the disk cache when
/// it has them (sources that go through the data loader), else loaded (and then stored there).
///
/// Shared by requests with the same data key and cache policy: a request that may not load
/// must not join a load, and one that ignores caches must not join a cache read. Reports
/// download progress and, when progressive decoding is on, the data so far each time a
/// progressive JPEG completes a scan (``StageEvent/partial(_:)``).
final class FetchDataStage: PipelineStage<Data, Data>, @unchecked Sendable {
    /// Whether the stage reads the disk cache before loading; not when a decode stage started it
    /// (see ``PipelineGraph/fetchData(_:keys:priority:readsDataCache:observer:)``).
    private let readsDataCache: Bool

    init(graph: PipelineGraph, request: ImageRequest, keys: RequestKeys, readsDataCache: Bool) {
        self.readsDataCache = readsDataCache
        super.init(graph: graph, request: request, keys: keys)
    }

    override func start() {
        if readsDataCache, let dataCache = graph.readableDataCache(for: request) {
            // The disk cache does blocking I/O: read it in its own queue, off the caller's executor.
            enqueue(in: graph.dataCacheQueue) { [self] in
                guard !Task.isCancelled else { return }
                if let data = dataCache.data(for: keys.data.string) {
                    finish(.success(data))
                } else {
                    loadUnlessCacheOnly()
                }
            }
        } else {
            loadUnlessCacheOnly()
        }
    }

    private func loadUnlessCacheOnly() {
        guard request.cachePolicy != .returnCacheDataDontLoad else { return finish(.failure(.notCached)) }
        enqueue(in: graph.loadQueue) { [self] in
            guard !Task.isCancelled else { return }
            let result = await loadSourceData()
            if case .success(let data) = result, request.source.usesDataLoader {
                graph.configuration.dataCache?.store(data, for: keys.data.string)
            }
            finish(result)
        }
    }
}
