import Foundation

// The pipeline's graph: which stages exist, in which order, with which queues.
//
//   caller ─ image(for:) / task(for:) / data(for:)
//     │  ImageRequestKeys: every key, derived once        memory cache hit? → done, no stage
//     ▼
//   ImageStage     imageStages    by ImageStageKey ── decodeQueue  disk read and decode at the
//     │                                                            target size, in one job
//     │                                                            (a .file source: straight
//     │                                                            from the mapped file)
//     │                                             ── processQueue processors, if any; then the
//     │                                                            memory cache
//     ▼ follows on a disk-cache miss
//   FetchDataStage fetchDataStages by FetchKey   ── dataCacheQueue disk read (data(for:), prefetch;
//                                                                   a miss follows the load below)
//                                                 ── loadQueue      loader, file, .data closure
//
// Every cache access goes through `caches` (PipelineCaches.swift), which the stages ask.
//
// Each registry coalesces: a request whose key has a stage in flight joins it. Each stage runs
// at the highest priority of its subscribers and is cancelled when the last one leaves
// (StageMachine.swift). Results flow back up the same subscriptions.

/// The stages and queues of one ``ImagePipeline``, and the factories that subscribe to them.
final class PipelineGraph: Sendable {
    /// Caches, loader, decoders and limits.
    let configuration: ImagePipeline.Configuration
    /// Every read and write of the memory and disk caches.
    let caches: PipelineCaches

    let imageStages = StageRegistry<ImageStageKey, StageImage, LoadedImage>()
    let fetchDataStages = StageRegistry<FetchKey, FetchedData, Data>()

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
    /// The image service's routing (``ImagePipeline/Configuration/imageService``), if any.
    let serviceRouting: ServiceRouting?
    /// The data revalidated in the background now.
    private let backgroundRevalidations = LockedState<Set<DataKey>>([])
    /// Who is told when a revalidation replaces a source's bytes (``ImagePipeline/observeChanges(of:_:)``).
    let changeObservers = DataChangeObservers()

    init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        caches = PipelineCaches(memory: configuration.memoryCache, disk: configuration.dataCache, http: configuration.httpCache)
        serviceRouting = configuration.imageService.map {
            ServiceRouting(service: $0, decoders: configuration.decoders, failover: configuration.imageServiceFailover)
        }
        processQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentProcessing)
        decodeQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDecodes)
        dataCacheQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDataCacheReads)
        loadQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDownloads)
    }

    /// Every key of `request` (see ImageRequestKeys.swift).
    func keys(for request: ImageRequest) -> ImageRequestKeys {
        ImageRequestKeys.derive(for: request, cacheKeyFilter: configuration.cacheKeyFilter, service: serviceRouting)
    }

    // MARK: The stages, downstream first

    /// Subscribes to the image stage for `request`: the image as the caller gets it.
    func loadImage(
        _ request: ImageRequest, keys: ImageRequestKeys, priority: ImageRequest.Priority,
        observer: @escaping ImageStage.Observer
    ) -> StageSubscription<StageImage, LoadedImage> {
        imageStages.subscribe(to: keys.stage, priority: priority, observer: observer) {
            ImageStage(graph: self, request: request, keys: keys)
        }
    }

    /// Subscribes to the fetch stage for `request`'s original data (which reads the disk cache
    /// first when `keys.fetch` says so).
    func fetchData(
        _ request: ImageRequest, keys: ImageRequestKeys, priority: ImageRequest.Priority,
        observer: @escaping FetchDataStage.Observer
    ) -> StageSubscription<FetchedData, Data> {
        fetchDataStages.subscribe(to: keys.fetch, priority: priority, observer: observer) {
            FetchDataStage(graph: self, request: request, keys: keys)
        }
    }

    // MARK: Waiting

    /// Waits for `request`'s image from the image stage (``ImagePipeline/image(for:)``'s miss),
    /// counted in ``liveRequests``.
    nonisolated(nonsending) func image(for request: ImageRequest, keys: ImageRequestKeys) async -> Result<StageImage, ImageError> {
        await countingLive {
            await StageWaiter.result { observer in loadImage(request, keys: keys, priority: request.priority, observer: observer) }
        }
    }

    /// Waits for `request`'s original data from the fetch stage (``ImagePipeline/data(for:)``),
    /// counted in ``liveRequests``.
    nonisolated(nonsending) func data(for request: ImageRequest, keys: ImageRequestKeys) async -> Result<FetchedData, ImageError> {
        await countingLive {
            let (result, joined) = await StageWaiter.resultAndSharing { observer in
                fetchData(request, keys: keys, priority: request.priority, observer: observer)
            }
            return result.map { fetched in
                var fetched = fetched
                fetched.joinedFetchInFlight = joined
                return fetched
            }
        }
    }

    // MARK: Memory hits

    /// The memory cache's image for `request` as HTTP's rules let it be used now: fresh (or not
    /// from HTTP at all), whatever is stored when the policy takes it, or stale but allowed while
    /// it is revalidated, which this then starts in the background. `nil` when there is none, or
    /// it must be revalidated first: the load then goes through the stages, whose revalidation
    /// keeps the stored bytes on a `304`.
    func usableImage(for request: ImageRequest, keys: ImageRequestKeys) -> LoadedImage? {
        guard let image = caches.image(for: request, keys: keys) else { return nil }
        switch request.cachePolicy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            return image
        case .reloadRevalidatingCacheData:
            return image.httpMetadata == nil ? image : nil
        case .reloadIgnoringLocalCacheData:
            return nil
        case .useProtocolCachePolicy:
            let validity = caches.validity(of: image)
            if validity.isFresh { return image }
            guard validity.servesWhileRevalidating else { return nil }
            revalidateInBackground(request, keys: keys)
            return image
        }
    }

    // MARK: Revalidation

    /// Revalidates `request`'s stored data in the background (an image of it was shown stale):
    /// one revalidation per data in flight, whoever asks, at low priority. A `304` renews the
    /// stored entry; new bytes replace it and every image decoded from the old ones
    /// (``dataDidChange(_:)``). Counted in ``liveRequests`` while it runs.
    func revalidateInBackground(_ request: ImageRequest, keys: ImageRequestKeys) {
        guard request.source.usesDataLoader, caches.hasDisk,
            backgroundRevalidations.withLock({ $0.insert(keys.data).inserted })
        else { return }  // one task per data, however many stale hits ask meanwhile
        var request = request
        request.cachePolicy = .useProtocolCachePolicy
        let keys = keys.forRevalidation
        liveRequests.withLock { $0 += 1 }
        Task { [self, request] in
            _ = await StageWaiter.result { observer in fetchData(request, keys: keys, priority: .low, observer: observer) }
            backgroundRevalidations.withLock { _ = $0.remove(keys.data) }
            liveRequests.withLock { $0 -= 1 }
        }
    }

    /// A revalidation found new bytes for `data`: every image decoded from the old ones leaves
    /// the memory cache (every size, every processor), and whoever shows them is told.
    func dataDidChange(_ data: DataKey) {
        caches.removeImages(decodedFrom: data)
        changeObservers.notify(data)
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
        var imageStages: Int
        /// Jobs waiting for a slot / holding one, all work queues together.
        var queuedJobs: Int
        var runningJobs: Int

        var total: Int { requests + fetchStages + imageStages + queuedJobs + runningJobs }

        var description: String {
            "\(requests) requests, stages \(fetchStages) fetch / \(imageStages) image, "
                + "\(queuedJobs) queued and \(runningJobs) running jobs"
        }
    }

    /// A snapshot of what is in flight (each part read on its own, so not atomic as a whole).
    var inFlight: InFlight {
        let queues = [dataCacheQueue, loadQueue, decodeQueue, processQueue]
        return InFlight(
            requests: liveRequests.withLock { $0 },
            fetchStages: fetchDataStages.count, imageStages: imageStages.count,
            queuedJobs: queues.reduce(0) { $0 + $1.queuedCount }, runningJobs: queues.reduce(0) { $0 + $1.runningCount })
    }
}
