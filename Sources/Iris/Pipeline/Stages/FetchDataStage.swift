import Foundation

/// The first stage: the original encoded bytes of a request's source, from the disk cache when
/// it has them (sources that go through the data loader), else loaded (and then stored there).
///
/// Shared by requests with the same data key and cache policy: a request that may not load
/// must not join a load, and one that ignores caches must not join a cache read. Reports
/// download progress and, when progressive decoding is on, the data so far each time a
/// progressive JPEG completes a scan (``StageEvent/partial(_:)``).
final class FetchDataStage: PipelineStage<Data, Data>, @unchecked Sendable {
    /// Requests with equal keys share one fetch.
    struct Key: Hashable, Sendable {
        var data: DataKey
        var cachePolicy: ImageRequest.CachePolicy
    }

    let dataKey: DataKey

    init(pipeline: ImagePipeline, request: ImageRequest, dataKey: DataKey) {
        self.dataKey = dataKey
        super.init(pipeline: pipeline, request: request)
    }

    override func start() {
        let policy = request.cachePolicy
        if request.source.usesDataLoader, policy != .reloadIgnoringCache, let dataCache = pipeline.configuration.dataCache {
            // The disk cache does blocking I/O: read it in its own queue, off the caller's executor.
            enqueue(in: pipeline.dataCacheQueue) { [self] in
                guard !Task.isCancelled else { return }
                if let data = dataCache.data(for: dataKey.string) {
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
        enqueue(in: pipeline.loadQueue) { [self] in
            guard !Task.isCancelled else { return }
            let result = await loadSourceData()
            if case .success(let data) = result, request.source.usesDataLoader {
                pipeline.configuration.dataCache?.store(data, for: dataKey.string)
            }
            finish(result)
        }
    }
}

extension ImagePipeline {
    /// Subscribes to the fetch stage for `request`'s original data.
    func fetchData(_ request: ImageRequest, dataKey: DataKey, priority: ImageRequest.Priority,
                   observer: @escaping FetchDataStage.Observer) -> StageSubscription<Data, Data> {
        let key = FetchDataStage.Key(data: dataKey, cachePolicy: request.cachePolicy)
        return fetchDataStages.subscribe(to: key, priority: priority, observer: observer) {
            FetchDataStage(pipeline: self, request: request, dataKey: dataKey)
        }
    }
}
