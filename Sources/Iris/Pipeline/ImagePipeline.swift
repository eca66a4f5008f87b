import Foundation

/// Loads, decodes, processes and caches images.
///
/// The way through: memory cache → ``FetchDataStage`` (disk cache or loader, a file, a `.data`
/// closure) → ``DecodeStage`` (at the request's target size) → ``ProcessStage`` (processors,
/// then the memory cache) → caller. Each stage is shared by identical requests in flight (data
/// by source, decode by source + target + orientation, processing by the full image key), runs
/// at the highest priority of the requests waiting on it and is cancelled only when none of
/// them wants it any more. Each kind of work has its own bounded, prioritised queue; reading the
/// disk cache, decoding and processing run off the caller's executor. See docs/ARCHITECTURE.md.
public final class ImagePipeline: Sendable {
    /// Caches, loader, decoders and limits.
    public let configuration: Configuration

    let fetchDataStages = StageRegistry<FetchDataStage.Key, Data, Data>()
    let decodeStages = StageRegistry<DecodeStage.Key, StageImage, LoadedImage>()
    let processStages = StageRegistry<ProcessStage.Key, StageImage, LoadedImage>()

    /// Disk-cache reads.
    let dataCacheQueue: WorkQueue
    /// Loads of the sources' data: network, files and `.data` closures.
    let loadQueue: WorkQueue
    let decodeQueue: WorkQueue
    let processQueue: WorkQueue
    /// Requests waiting for their result: ``ImageTask``s not yet ended, and callers of
    /// ``image(for:)`` and ``data(for:)`` still waiting (memory-cache hits are never counted).
    let liveRequests = LockedState(0)

    /// Makes a pipeline over `configuration`'s loader, caches and decoders, with one work
    /// queue per kind of work sized by its limits.
    public init(configuration: Configuration) {
        self.configuration = configuration
        dataCacheQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDataCacheReads)
        loadQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDownloads)
        decodeQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDecodes)
        processQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentProcessing)
    }

    // MARK: Loading

    /// Loads the image for `request`. Cancelling the calling task cancels this request (shared
    /// work goes on for other requests) and throws ``ImageError/cancelled``.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): a memory-cache hit awaited from
    /// the main actor returns without leaving it.
    public nonisolated(nonsending) func image(for request: ImageRequest) async throws(ImageError) -> LoadedImage {
        let keys = keys(for: request)
        // A hit needs no task (and no streams): the hot path of a scrolling list.
        if let cached = readMemoryCache(keys.image, policy: request.cachePolicy) { return cached.scaled(for: request) }
        let result = await countingLive {
            await StageWaiter.result { observer in
                processImage(request, keys: keys, priority: request.priority, observer: observer)
            }
        }
        return try result.get().loadedImage(for: request)
    }

    /// Loads the image at `url` at full size (`file:` URLs are read as files).
    public nonisolated(nonsending) func image(for url: URL) async throws(ImageError) -> LoadedImage {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading `request` and returns its task. A memory-cache hit gives a task that has
    /// already succeeded.
    public func task(for request: ImageRequest) -> ImageTask {
        task(for: request, key: keys(for: request).image)
    }

    /// ``task(for:)`` with `request`'s image key already derived.
    func task(for request: ImageRequest, key: ImageCacheKey) -> ImageTask {
        let task = ImageTask(request: request)
        let keys = RequestKeys(image: key)
        if let cached = readMemoryCache(key, policy: request.cachePolicy) {
            task.complete(with: .success(cached.scaled(for: request)))
            return task
        }
        liveRequests.withLock { $0 += 1 }
        task.onCompletion { [liveRequests] _ in liveRequests.withLock { $0 -= 1 } }
        task.attach(processImage(request, keys: keys, priority: request.priority) { [task] event in
            task.receive(event)
        })
        return task
    }

    // MARK: Caches

    /// The image for `request` if the memory cache holds it, read synchronously so a view can
    /// show it in the same frame. `nil` when the request's policy ignores caches.
    public func cachedImage(for request: ImageRequest) -> LoadedImage? {
        cachedImage(for: request, key: keys(for: request).image)
    }

    /// ``cachedImage(for:)`` with `request`'s image key already derived.
    func cachedImage(for request: ImageRequest, key: ImageCacheKey) -> LoadedImage? {
        readMemoryCache(key, policy: request.cachePolicy)?.scaled(for: request)
    }

    private func readMemoryCache(_ key: ImageCacheKey, policy: ImageRequest.CachePolicy) -> LoadedImage? {
        guard policy != .reloadIgnoringCache else { return nil }
        return configuration.memoryCache?.image(for: key)
    }

    /// Runs `body` counted in ``liveRequests``.
    nonisolated(nonsending) func countingLive<T>(_ body: nonisolated(nonsending) () async -> T) async -> T {
        liveRequests.withLock { $0 += 1 }
        defer { liveRequests.withLock { $0 -= 1 } }
        return await body()
    }

    // MARK: Introspection

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

    /// Waiting requests, stages and queued or running jobs still in flight.
    var inFlightCount: Int { inFlight.total }
}

extension LoadedImage {
    /// The image as handed to `request`'s caller: with the request's scale (images are shared
    /// between requests that differ only in scale).
    consuming func scaled(for request: ImageRequest) -> LoadedImage {
        scale = request.scale
        return self
    }
}
