import Foundation

/// Loads, decodes, processes and caches images.
///
/// The way through: memory cache → data (disk cache or loader, a file, a `.data` closure) →
/// decode at the request's target size → processors → memory cache → caller. Each stage is
/// shared by identical requests in flight (data by source, decode by source + target +
/// orientation, processing by the full image key), runs at the highest priority of the requests
/// waiting on it and is cancelled only when none of them wants it any more. Each stage has its
/// own bounded, prioritised queue; decoding and processing run off the caller's executor.
public final class ImagePipeline: Sendable {
    /// Caches, loader, decoders and limits.
    public let configuration: Configuration

    let dataStage = CoalescingStage<DataStageKey, Data>()
    let decodeStage = CoalescingStage<ImageStageKey, LoadedImage>()
    let processStage = CoalescingStage<ImageStageKey, LoadedImage>()

    let dataQueue: WorkQueue
    let decodeQueue: WorkQueue
    let processQueue: WorkQueue

    /// Makes a pipeline.
    public init(configuration: Configuration) {
        self.configuration = configuration
        dataQueue = WorkQueue(maxConcurrent: configuration.maxConcurrentDownloads)
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
        // A hit needs no task (and no streams): the hot path of a scrolling list.
        if let cached = cachedImage(for: request) { return cached }
        return try await task(for: request).image
    }

    /// Loads the image at `url` at full size (`file:` URLs are read as files).
    public nonisolated(nonsending) func image(for url: URL) async throws(ImageError) -> LoadedImage {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading `request` and returns its task. A memory-cache hit gives a task that has
    /// already succeeded.
    public func task(for request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request)
        let key = imageKey(for: request)
        if let cached = readMemoryCache(key, policy: request.cachePolicy) {
            task.complete(with: .success(cached.scaled(for: request)))
            return task
        }
        let subscription = subscribeProcessed(request, key: key, priority: request.priority) { [task] event in
            task.receive(event)
        }
        task.attach(subscription)
        return task
    }

    // MARK: Caches

    /// The image for `request` if the memory cache holds it, read synchronously so a view can
    /// show it in the same frame. `nil` when the request's policy ignores caches.
    public func cachedImage(for request: ImageRequest) -> LoadedImage? {
        readMemoryCache(imageKey(for: request), policy: request.cachePolicy)?.scaled(for: request)
    }

    /// The key of `request`'s original data in the disk cache: ``ImageRequest/dataKey`` with the
    /// configuration's ``Configuration/cacheKeyFilter`` applied to URL sources.
    public func dataKey(for request: ImageRequest) -> String {
        if request.options.cacheKey == nil, let filter = configuration.cacheKeyFilter {
            switch request.source {
            case .url(let url): return filter(url)
            case .urlRequest(let urlRequest): if let url = urlRequest.url { return filter(url) }
            case .file, .data: break
            }
        }
        return request.dataKey
    }

    /// The key of `request`'s decoded, processed image in the memory cache.
    public func imageKey(for request: ImageRequest) -> ImageCacheKey {
        ImageCacheKey(dataKey: dataKey(for: request), target: request.decodeTarget,
                      skipsOrientation: request.options.skipsOrientation,
                      processors: request.processors.map(\.identifier))
    }

    private func readMemoryCache(_ key: ImageCacheKey, policy: ImageRequest.CachePolicy) -> LoadedImage? {
        guard policy != .reloadIgnoringCache else { return nil }
        return configuration.memoryCache?.image(for: key)
    }

    // MARK: Introspection

    /// Shared operations and queued or running jobs still in flight, in all stages.
    var inFlightCount: Int {
        dataStage.count + decodeStage.count + processStage.count
            + dataQueue.queuedCount + dataQueue.runningCount
            + decodeQueue.queuedCount + decodeQueue.runningCount
            + processQueue.queuedCount + processQueue.runningCount
    }
}

extension LoadedImage {
    /// The image as handed to `request`'s caller: with the request's scale (images are shared
    /// between requests that differ only in scale).
    func scaled(for request: ImageRequest) -> LoadedImage {
        var image = self
        image.scale = request.scale
        return image
    }
}

/// Coalescing key of the data stage. The cache policy is part of it: a request that may not
/// load must not join a load, and one that ignores caches must not join a cache read.
struct DataStageKey: Hashable, Sendable {
    var dataKey: String
    var cachePolicy: ImageRequest.CachePolicy
}

/// Coalescing key of the decode and processing stages.
struct ImageStageKey: Hashable, Sendable {
    var imageKey: ImageCacheKey
    var cachePolicy: ImageRequest.CachePolicy
    var keepsData: Bool
}
