import Foundation

/// The first stage: the original encoded bytes of a request's source, loaded (and then stored
/// in the disk cache), or, when its key says so (``FetchKey/readsDisk``: `data(for:)` and
/// prefetching to disk), read from the disk cache first.
///
/// Shared by requests with the same fetch key: a request that may not load must not join a
/// load, and one that ignores caches must not join a cache read. A disk miss follows the
/// fetch that only loads, which an image load's decode stage follows after its own disk read:
/// the two share one download. Reports download progress and, when progressive decoding is
/// on, the data so far each time a progressive JPEG completes a scan (``StageEvent/partial(_:)``).
/// Every cache access goes through ``PipelineGraph/caches``.
final class FetchDataStage: PipelineStage<Data, Data>, @unchecked Sendable {
    override func start() {
        guard graph.caches.readsData(for: keys) else { return loadUnlessCacheOnly() }
        // The disk cache does blocking I/O: read it in its own queue, off the caller's executor.
        enqueue(in: graph.dataCacheQueue) { [self] in
            guard !Task.isCancelled else { return }
            if let data = graph.caches.data(for: keys) {
                finish(.success(data))
            } else {
                followLoad()
            }
        }
    }

    /// A disk miss: follows the fetch of the same data that loads without reading the disk.
    private func followLoad() {
        follow(
            { [graph] in graph.fetchData($0, keys: $1.withoutDiskRead, priority: $2, observer: $3) },
            partial: { [self] data in publishPartial(data) },
            success: { [self] data in finish(.success(data)) })
    }

    private func loadUnlessCacheOnly() {
        guard request.cachePolicy != .returnCacheDataDontLoad else { return finish(.failure(.notCached)) }
        enqueue(in: graph.loadQueue) { [self] in
            guard !Task.isCancelled else { return }
            switch await loadSourceData() {
            case .success(let data):
                graph.caches.storeLoadedData(data, of: request, keys: keys)
                finish(.success(data))
            case .fellBack(let data, let error):
                // The original, not the rendition: cached under its own key, and the decode
                // says where it came from.
                graph.caches.storeData(data, forKey: keys.data.original.string)
                graph.serviceFallbacks.record(error, for: keys.data)
                finish(.success(data))
            case .failure(let error):
                finish(.failure(error))
            }
        }
    }
}
