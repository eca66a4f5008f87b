import Foundation

/// Loads, decodes, processes and caches images.
///
/// The way through: memory cache → fetch the data (disk cache or loader, a file, a `.data`
/// closure) → decode (at the request's target size) → process (processors, then the memory
/// cache) → caller. Each stage is shared by identical requests in flight (data
/// by source, decode by source + target + orientation, processing by the full image key), runs
/// at the highest priority of the requests waiting on it and is cancelled only when none of
/// them wants it any more. Each kind of work has its own bounded, prioritised queue; reading the
/// disk cache, decoding and processing run off the caller's executor. See docs/ARCHITECTURE.md
/// and PipelineGraph.swift.
public final class ImagePipeline: Sendable {
    /// Caches, loader, decoders and limits.
    public var configuration: Configuration { graph.configuration }

    /// The stages and queues.
    let graph: PipelineGraph

    /// Makes a pipeline over `configuration`'s loader, caches and decoders, with one work
    /// queue per kind of work sized by its limits.
    public init(configuration: Configuration) {
        graph = PipelineGraph(configuration: configuration)
    }

    /// Starts from a configuration made by `configure`:
    /// `ImagePipeline { $0.dataCache = try? DataCache(directory: url) }`.
    public convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }

    // MARK: Loading

    /// Loads the image for `request`. Cancelling the calling task cancels this request (shared
    /// work goes on for other requests) and throws ``ImageError/cancelled``.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): a memory-cache hit awaited from
    /// the main actor returns without leaving it.
    public nonisolated(nonsending) func image(for request: ImageRequest) async throws(ImageError) -> LoadedImage {
        let keys = graph.keys(for: request)
        // A hit needs no task (and no streams): the hot path of a scrolling list.
        if let cached = graph.usableImage(for: request, keys: keys) { return cached }
        return try await loadImage(for: request, keys: keys)
    }

    /// ``image(for:)``'s miss: waits for the image stage. Its own function, so that the hit
    /// above keeps no async frame holding a copy of the request.
    private nonisolated(nonsending) func loadImage(
        for request: ImageRequest, keys: ImageRequestKeys
    ) async throws(ImageError) -> LoadedImage {
        try await graph.image(for: request, keys: keys).get().loadedImage(for: request)
    }

    /// Loads the image at `url` at full size (`file:` URLs are read as files).
    public nonisolated(nonsending) func image(for url: URL) async throws(ImageError) -> LoadedImage {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading `request` and returns its task. A memory-cache hit gives a task that has
    /// already succeeded.
    public func task(for request: ImageRequest) -> ImageTask {
        task(for: request, keys: graph.keys(for: request))
    }

    /// ``task(for:)`` with `request`'s keys already derived (``keys(for:)``).
    public func task(for request: ImageRequest, keys: ImageRequestKeys) -> ImageTask {
        let task = ImageTask(request: request)
        if let cached = graph.usableImage(for: request, keys: keys) {
            task.complete(with: .success(cached))
            return task
        }
        let liveRequests = graph.liveRequests
        liveRequests.withLock { $0 += 1 }
        task.onCompletion { _ in liveRequests.withLock { $0 -= 1 } }
        task.attach(
            graph.loadImage(request, keys: keys, priority: request.priority) { [task] event in
                task.receive(event)
            })
        return task
    }

    /// The original encoded bytes of `request`'s source with what is known about them (where
    /// they came from, what HTTP said about them): from the disk cache under HTTP's rules (a
    /// stale entry is revalidated first), or loaded (and then stored there), shared with image
    /// loads of the same data in flight. Cancelling the calling task leaves the shared load and
    /// throws ``ImageError/cancelled``.
    public func fetch(_ request: ImageRequest) async throws(ImageError) -> FetchedData {
        try await graph.data(for: request, keys: graph.keys(for: request)).get()
    }

    /// The original encoded bytes of `request`'s source: ``fetch(_:)``'s data.
    public func data(for request: ImageRequest) async throws(ImageError) -> Data {
        try await fetch(request).data
    }

    /// Calls `handler` each time a revalidation finds that the bytes `request` shows were
    /// replaced at their origin (a `200` with other bytes where a `304` was hoped for): the
    /// images decoded from the old bytes have then left the memory cache, and loading `request`
    /// again gives the new image. The handler runs on no particular thread. The observation lasts
    /// until it is cancelled or released.
    public func observeChanges(of request: ImageRequest, _ handler: @escaping @Sendable () -> Void) -> ImageChangeObservation {
        graph.changeObservers.add(for: graph.keys(for: request).data, handler)
    }

    /// The memory cache's image for `request` as ``task(for:)`` would use it now, read
    /// synchronously so a view can show it in the same frame: fresh under HTTP's rules (or
    /// allowed by the request's cache policy), or stale but allowed to be shown while it is
    /// revalidated (which this starts); `nil` for an image that must be revalidated before it
    /// is shown. ``Cache/image(for:)`` is the plain read.
    public func cachedImage(for request: ImageRequest) -> LoadedImage? {
        cachedImage(for: request, keys: graph.keys(for: request))
    }

    /// ``cachedImage(for:)`` with `request`'s keys already derived (``keys(for:)``).
    public func cachedImage(for request: ImageRequest, keys: ImageRequestKeys) -> LoadedImage? {
        graph.usableImage(for: request, keys: keys)
    }

    // MARK: Keys

    /// Every key of `request`, derived once: for a caller that reads the cache, compares the
    /// request with another and starts a task for it with the same keys.
    public func keys(for request: ImageRequest) -> ImageRequestKeys { graph.keys(for: request) }

    /// The key of `request`'s original data in the disk cache.
    public func dataKey(for request: ImageRequest) -> String { graph.keys(for: request).data.string }

    /// The key of `request`'s source itself: its ``dataKey(for:)`` without an image service's
    /// rendition, the same for every size the source is shown at.
    public func sourceKey(for request: ImageRequest) -> String { graph.keys(for: request).data.original.string }

    /// The key of `request`'s decoded, processed image in the memory cache.
    public func imageKey(for request: ImageRequest) -> ImageCacheKey { graph.keys(for: request).image }

    /// What makes two requests show the same image through this pipeline: a view reloads when
    /// its request's identity changes (a new URL, a new `.data` id, other processors, another
    /// cache policy), as `.task(id:)` does.
    public func identity(of request: ImageRequest) -> ImageRequestIdentity { graph.keys(for: request).identity }

    // MARK: Introspection

    /// Callers waiting for this pipeline now: image tasks, ``image(for:)`` and ``fetch(_:)``
    /// calls, each from its call until its result. For diagnostics, and for a test that must
    /// know that requests have joined the work in flight before it lets that work go on.
    public var requestsInFlight: Int { graph.liveRequests.withLock { $0 } }

    /// What is still in flight, part by part (for tests and diagnostics).
    var inFlight: PipelineGraph.InFlight { graph.inFlight }

    /// Waiting requests, stages and queued or running jobs still in flight.
    var inFlightCount: Int { graph.inFlight.total }
}
