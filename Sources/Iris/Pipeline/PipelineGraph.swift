import Foundation

// The pipeline's graph: which stages exist, in which order, with which queues.
//
//   caller ─ image(for:) / task(for:) / data(for:)
//     │  RequestKeys: every key, derived once        memory cache hit? → done, no stage
//     ▼
//   ProcessStage   processStages  by ProcessKey  ── processQueue   processors, then memory cache
//     ▼ follows
//   DecodeStage    decodeStages   by DecodeKey   ── decodeQueue    decode at the target size
//     ▼ follows on a disk-cache miss               (a disk hit: read and decoded in one job;
//                                                   a .file source: straight from the mapped file)
//   FetchDataStage fetchDataStages by FetchKey   ── dataCacheQueue disk cache read
//                                                 ── loadQueue      loader, file, .data closure
//
// Each registry coalesces: a request whose key has a stage in flight joins it. Each stage runs
// at the highest priority of its subscribers and is cancelled when the last one leaves
// (StageMachine.swift). Results flow back up the same subscriptions.

/// The stages and queues of one ``ImagePipeline``, and the factories that subscribe to them.
final class PipelineGraph: Sendable {
    /// Caches, loader, decoders and limits.
    let configuration: ImagePipeline.Configuration

    let processStages = StageRegistry<ProcessKey, StageImage, LoadedImage>()
    let decodeStages = StageRegistry<DecodeKey, StageImage, LoadedImage>()
    let fetchDataStages = StageRegistry<FetchKey, Data, Data>()

    let processQueue: WorkQueue
    let decodeQueue: WorkQueue
    /// Disk-cache reads.
    let dataCacheQueue: WorkQueue
    /// Loads of the sources' data: network, files and `.data` closures.
    let loadQueue: WorkQueue

    /// Requests waiting for their result: ``ImageTask``s not yet ended, and callers of
    /// ``ImagePipeline/image(for:)`` and ``ImagePipeline/data(for:)`` still waiting
    /// (memory-cache hits are never counted).
    let liveRequests = LockedState(0)

    init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        processQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentProcessing)
        decodeQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDecodes)
        dataCacheQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDataCacheReads)
        loadQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDownloads)
    }

    /// Every key of `request` (see RequestKeys.swift).
    func keys(for request: ImageRequest) -> RequestKeys {
        RequestKeys.derive(for: request, cacheKeyFilter: configuration.cacheKeyFilter)
    }

    /// The memory cache's image for `keys`, as `request`'s caller gets it; `nil` when the
    /// request's policy ignores caches. The only read of the memory cache.
    func cachedImage(for request: ImageRequest, keys: RequestKeys) -> LoadedImage? {
        guard request.cachePolicy != .reloadIgnoringCache, var image = configuration.memoryCache?.image(for: keys.image) else {
            return nil
        }
        image.scale = request.scale   // in place: the image is copied once, out of the cache
        return image
    }

    /// The disk cache `request` may read: sources that go through the data loader, unless the
    /// request's policy ignores caches.
    func readableDataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard request.source.usesDataLoader, request.cachePolicy != .reloadIgnoringCache else { return nil }
        return configuration.dataCache
    }

    // MARK: The stages, downstream first

    /// Subscribes to the process stage for `request`: the image as the caller gets it.
    func processImage(_ request: ImageRequest, keys: RequestKeys, priority: ImageRequest.Priority,
                      observer: @escaping ProcessStage.Observer) -> StageSubscription<StageImage, LoadedImage> {
        processStages.subscribe(to: keys.process, priority: priority, observer: observer) {
            ProcessStage(graph: self, request: request, keys: keys)
        }
    }

    /// Subscribes to the decode stage for `request`.
    func decodeImage(_ request: ImageRequest, keys: RequestKeys, priority: ImageRequest.Priority,
                     observer: @escaping DecodeStage.Observer) -> StageSubscription<StageImage, LoadedImage> {
        decodeStages.subscribe(to: keys.decode, priority: priority, observer: observer) {
            DecodeStage(graph: self, request: request, keys: keys)
        }
    }

    /// Subscribes to the fetch stage for `request`'s original data. A stage this starts reads
    /// the disk cache first unless `readsDataCache` is false: the decode stage has read it
    /// already (a stage it joins is shared as it is).
    func fetchData(_ request: ImageRequest, keys: RequestKeys, priority: ImageRequest.Priority, readsDataCache: Bool = true,
                   observer: @escaping FetchDataStage.Observer) -> StageSubscription<Data, Data> {
        fetchDataStages.subscribe(to: keys.fetch, priority: priority, observer: observer) {
            FetchDataStage(graph: self, request: request, keys: keys, readsDataCache: readsDataCache)
        }
    }

    // MARK: Waiting

    /// Waits for `request`'s image from the process stage (``ImagePipeline/image(for:)``'s miss),
    /// counted in ``liveRequests``.
    nonisolated(nonsending) func image(for request: ImageRequest, keys: RequestKeys) async -> Result<StageImage, ImageError> {
        await countingLive {
            await StageWaiter.result { observer in processImage(request, keys: keys, priority: request.priority, observer: observer) }
        }
    }

    /// Waits for `request`'s original data from the fetch stage (``ImagePipeline/data(for:)``),
    /// counted in ``liveRequests``.
    nonisolated(nonsending) func data(for request: ImageRequest, keys: RequestKeys) async -> Result<Data, ImageError> {
        await countingLive {
            await StageWaiter.result { observer in fetchData(request, keys: keys, priority: request.priority, observer: observer) }
        }
    }

    // MARK: In flight

    /// Runs `body` counted in ``liveRequests``.
    private nonisolated(nonsending) func countingLive<T>(_ body: nonisolated(nonsending) () async -> T) async -> T {
        liveRequests.withLock { $0 += 1 }
        defer { liveRequests.withLock { $0 -= 1 } }
        return await body()
    }

    /// What is still in flight, part by part (for tests and diagnostics).
    struct InFlight: Equatable, CustomStringConvertible {
        /// Tasks and callers waiting for a result (``liveRequests``).
        var requests: Int
        /// Stages in their registries.
        var fetchStages: Int
        var decodeStages: Int
        var processStages: Int
        /// Jobs waiting for a slot / holding one, all work queues together.
        var queuedJobs: Int
        var runningJobs: Int

        var total: Int { requests + fetchStages + decodeStages + processStages + queuedJobs + runningJobs }

        var description: String {
            "\(requests) requests, stages \(fetchStages) fetch / \(decodeStages) decode / \(processStages) process, "
                + "\(queuedJobs) queued and \(runningJobs) running jobs"
        }
    }

    /// A snapshot of what is in flight (each part read on its own, so not atomic as a whole).
    var inFlight: InFlight {
        let queues = [dataCacheQueue, loadQueue, decodeQueue, processQueue]
        return InFlight(requests: liveRequests.withLock { $0 },
                        fetchStages: fetchDataStages.count, decodeStages: decodeStages.count, processStages: processStages.count,
                        queuedJobs: queues.reduce(0) { $0 + $1.queuedCount }, runningJobs: queues.reduce(0) { $0 + $1.runningCount })
    }
}
