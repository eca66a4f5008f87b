/// Loads images ahead of time — the rows a list is about to show — at low priority, so they
/// are ready when needed.
///
/// Prefetches share work with real requests: when a view asks for an image being prefetched it
/// joins the prefetch, which then runs at the view's priority. Stopping a prefetch leaves that
/// shared work; it stops only if nothing else needs it.
public final class ImagePrefetcher: Sendable {
    /// How far a prefetch goes.
    public enum Destination: Sendable, Hashable {
        /// Load, decode and process into the memory cache (and the disk cache on the way).
        case memoryCache
        /// Only download the original data into the disk cache. Applies to `.url` and
        /// `.urlRequest` sources; others are skipped, having no disk cache to warm.
        case diskCache
    }

    /// The pipeline that loads.
    public let pipeline: ImagePipeline
    /// How far a prefetch goes.
    public let destination: Destination
    /// The priority prefetches run at (requests' own priorities are ignored).
    public let priority: ImageRequest.Priority

    /// What a prefetch is known by: the image key when it goes to the memory cache, the data
    /// key when it goes to the disk cache (both from the request's ``ImageRequestKeys``).
    private enum Key: Hashable {
        case image(ImageCacheKey)
        case data(DataKey)

        init(_ keys: ImageRequestKeys, destination: Destination) {
            switch destination {
            case .memoryCache: self = .image(keys.image)
            case .diskCache: self = .data(keys.data)
            }
        }
    }

    /// A running prefetch; `cancel` is set once the work has started.
    private struct Entry {
        let token: Int
        var cancel: (@Sendable () -> Void)?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextToken = 0
        /// Callers of ``waitUntilFinished()``, resumed when no prefetch is left.
        var waiters: [CheckedContinuation<Void, Never>] = []

        /// The waiters to resume now that `entries` may have emptied.
        mutating func takeWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
            guard entries.isEmpty else { return [] }
            defer { waiters = [] }
            return waiters
        }
    }

    private let state = LockedState(State())

    /// Makes a prefetcher that loads through `pipeline` into `destination` at `priority`.
    public init(
        pipeline: ImagePipeline = .shared, destination: Destination = .memoryCache,
        priority: ImageRequest.Priority = .low
    ) {
        self.pipeline = pipeline
        self.destination = destination
        self.priority = priority
    }

    /// Prefetches still running: how many are left.
    public var activeCount: Int { state.withLock { $0.entries.count } }

    /// Callers waiting in ``waitUntilFinished()`` (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Returns once no prefetch is running (at once if none is): every one finished, failed or
    /// was stopped.
    public func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.entries.isEmpty { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Starts loading `requests` that are not cached or already being prefetched.
    public func startPrefetching(with requests: [ImageRequest]) {
        for request in requests { start(request) }
    }

    /// Stops prefetching `requests`.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let (cancels, waiters) = state.withLock { state in
            (
                requests.compactMap {
                    state.entries.removeValue(forKey: Key(pipeline.graph.keys(for: $0), destination: destination))?.cancel
                },
                state.takeWaitersIfIdle()
            )
        }
        for cancel in cancels { cancel() }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops every prefetch.
    public func stopPrefetching() {
        let (cancels, waiters) = state.withLock { state in
            let cancels = state.entries.values.compactMap(\.cancel)
            state.entries = [:]
            return (cancels, state.takeWaitersIfIdle())
        }
        for cancel in cancels { cancel() }
        for waiter in waiters { waiter.resume() }
    }

    private func start(_ request: ImageRequest) {
        var request = request
        request.priority = priority
        let graph = pipeline.graph
        let keys = graph.keys(for: request)
        let key = Key(keys, destination: destination)
        switch key {
        case .image:
            if graph.caches.image(for: request, keys: keys) != nil { return }
        case .data:
            if !request.source.usesDataLoader || !graph.caches.hasDisk { return }
        }
        let token: Int? = state.withLock { state in
            guard state.entries[key] == nil else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.entries[key] = Entry(token: token)
            return token
        }
        guard let token else { return }
        let done: @Sendable () -> Void = { [weak self] in self?.remove(key, token: token) }

        let cancel: @Sendable () -> Void
        switch key {
        case .image:
            let subscription = graph.loadImage(request, keys: keys, priority: priority) { event in
                if case .finished = event { done() }
            }
            cancel = { subscription.cancel() }
        case .data:
            let subscription = graph.fetchData(request, keys: keys, priority: priority) { event in
                if case .finished = event { done() }
            }
            cancel = { subscription.cancel() }
        }
        let isStopped = state.withLock { state in
            guard state.entries[key]?.token == token else { return true }
            state.entries[key]?.cancel = cancel
            return false
        }
        // Stopped (or finished) before the work was registered: make sure it does not run on.
        if isStopped { cancel() }
    }

    private func remove(_ key: Key, token: Int) {
        let waiters = state.withLock { state in
            if state.entries[key]?.token == token { state.entries[key] = nil }
            return state.takeWaitersIfIdle()
        }
        for waiter in waiters { waiter.resume() }
    }
}
