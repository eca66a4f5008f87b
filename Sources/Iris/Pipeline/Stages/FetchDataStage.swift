import Foundation

/// The first stage: the original encoded bytes of a request's source, with what is known about
/// them (``FetchedData``): loaded (and then stored in the disk cache with their HTTP metadata),
/// or, when its key says so (``FetchKey/readsDisk``: `fetch(_:)`, prefetching to disk, an image
/// load whose stored data must be revalidated first, a revalidation in the background), read
/// from the disk cache first and used under HTTP's rules.
///
/// A stored entry is used without asking while it is fresh (or whatever its age, when the
/// request's policy says so); a stale one, or any under
/// ``ImageRequest/CachePolicy/reloadRevalidatingCacheData``, is revalidated with a conditional
/// request: a `304` renews its metadata and hands on the stored bytes, a `200` replaces them and
/// drops every image decoded from the old ones (``PipelineGraph/dataDidChange(_:)``), and a
/// failure hands on the stale bytes only where their metadata allows (offline, `stale-if-error`;
/// never `must-revalidate`).
///
/// Shared by requests with the same fetch key: a request that may not load must not join a
/// load, and one that ignores caches must not join a cache read. A disk miss follows the
/// fetch that only loads, which an image load's image stage follows after its own disk read:
/// the two share one download. Reports download progress and, when progressive decoding is
/// on, the data so far each time a progressive JPEG completes a scan (``StageEvent/partial(_:)``).
/// Every cache access goes through ``PipelineGraph/caches``.
final class FetchDataStage: PipelineStage<FetchedData, Data>, @unchecked Sendable {
    override func start() {
        guard graph.caches.readsData(for: keys) else { return load() }
        // The disk cache does blocking I/O: read it in its own queue, off the caller's executor.
        enqueue(in: graph.dataCacheQueue) { [self] in
            guard !Task.isCancelled else { return }
            guard let entry = graph.caches.entry(for: keys) else { return followLoad() }
            let validity = graph.caches.validity(of: entry)
            switch request.cachePolicy {
            case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
                finish(.success(FetchedData(stored: entry, origin: .diskCache, keys: keys)))
            case .useProtocolCachePolicy where validity.isFresh:
                finish(.success(FetchedData(stored: entry, origin: .diskCache, keys: keys)))
            case .useProtocolCachePolicy, .reloadRevalidatingCacheData, .reloadIgnoringLocalCacheData:
                revalidate(entry, validity: validity)
            }
        }
    }

    /// A disk miss: follows the fetch of the same data that loads without reading the disk.
    private func followLoad() {
        follow(
            { [graph] in graph.fetchData($0, keys: $1.withoutDiskRead, priority: $2, observer: $3) },
            partial: { [self] data in publishPartial(data) },
            success: { [self] fetched in finish(.success(fetched)) })
    }

    /// Loads the source, unless the request may only read caches.
    private func load() {
        guard request.cachePolicy != .returnCacheDataDontLoad else { return finish(.failure(.notCached)) }
        enqueue(in: graph.loadQueue) { [self] in
            guard !Task.isCancelled else { return }
            switch await loadSourceData(revalidating: nil) {
            case .fetched(let fetched):
                graph.caches.storeFetched(fetched, of: request, keys: keys)
                finish(.success(fetched))
            case .notModified:
                finish(.failure(.httpStatus(code: 304, url: request.urlForErrors)))
            case .failure(let error):
                finish(.failure(error))
            }
        }
    }

    /// Asks the origin about `entry`: conditionally when it has validators (a `304` costs no
    /// body), else by loading it again.
    private func revalidate(_ entry: DataCacheEntry, validity: HTTPCacheValidity) {
        guard request.cachePolicy != .returnCacheDataDontLoad else {
            return finish(.success(FetchedData(stored: entry, origin: .diskCache, keys: keys)))
        }
        enqueue(in: graph.loadQueue) { [self] in
            guard !Task.isCancelled else { return }
            switch await loadSourceData(revalidating: (entry, validity)) {
            case .notModified(let answer):
                let fetched = FetchedData(stored: entry.renewed(by: answer), origin: .revalidated, keys: keys)
                graph.caches.storeFetched(fetched, of: request, keys: keys)
                finish(.success(fetched))
            case .fetched(let fetched):
                graph.caches.storeFetched(fetched, of: request, keys: keys)
                if fetched.serviceFallback == nil, fetched.data != entry.data { graph.dataDidChange(keys.data) }
                finish(.success(fetched))
            case .failure(let error):
                if Self.servesStale(validity, after: error) {
                    var stale = FetchedData(stored: entry, origin: .staleAfterError, keys: keys)
                    stale.staleBecause = error
                    finish(.success(stale))
                } else {
                    finish(.failure(error))
                }
            }
        }
    }

    /// Whether stored data with `validity` may be used after a revalidation failed with `error`:
    /// within `stale-if-error` for an error status or no answer, or offline (no answer) when the
    /// response did not forbid it.
    static func servesStale(_ validity: HTTPCacheValidity, after error: ImageError) -> Bool {
        switch error {
        case .httpStatus(let code, _) where code >= 500: validity.servesOnErrorStatus
        case .network: validity.servesWhenUnreachable || validity.servesOnErrorStatus
        default: false
        }
    }
}

extension FetchedData {
    /// The stored `entry` of `keys`' data, handed on from `origin`.
    init(stored entry: DataCacheEntry, origin: Origin, keys: ImageRequestKeys) {
        self.init(data: entry.data, origin: origin, httpMetadata: entry.metadata, rendition: keys.data.rendition?.rendition)
    }
}

extension DataCacheEntry {
    /// This entry after a `304 Not Modified` whose own fields and times are `answer`: the same
    /// bytes, the metadata renewed by it (the answer's, when the entry had none).
    func renewed(by answer: HTTPCacheMetadata) -> DataCacheEntry {
        let metadata = self.metadata?.renewed(by: answer.headers, requestTime: answer.requestTime, responseTime: answer.responseTime)
        return DataCacheEntry(data: data, metadata: metadata ?? answer)
    }
}

extension ImageRequest {
    /// The URL named in errors about this request's data.
    var urlForErrors: URL? {
        switch source {
        case .url(let url), .file(let url): url
        case .urlRequest(let request): request.url
        case .data: nil
        }
    }
}
