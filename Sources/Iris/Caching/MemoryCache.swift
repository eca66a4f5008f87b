import Foundation

/// An in-memory cache of decoded images, least recently used first out.
///
/// Limited by total cost (bytes, ``LoadedImage/cost``) and by count; optionally entries expire
/// after a time to live. Reads and writes are O(1) and synchronous, so a hit can be shown in the
/// same frame; a lock (`LockedState`) makes the cache safe to use from any thread (it was measured faster than
/// an actor on the hit path, which also cannot be synchronous).
///
/// An image costing more than ``costLimit`` is not stored.
///
/// The same pixels are held once: storing an image whose bitmap shares its pixels with an image
/// of the same source already stored under another key (a view that grew and re-keyed its image
/// without decoding again) moves it to the new key, so the cache never charges one decode twice.
/// ``image(sameSourceAs:)`` finds the largest image of a source whatever its key: what a view
/// shows at once before it knows its size.
///
/// Under memory pressure (``MemoryPressure``: a memory warning, the app entering the background,
/// the system's memory-pressure events, as ``MemoryPressureMonitor`` reports them) the cache
/// gives back what it alone keeps alive; images some view still shows stay, since dropping them
/// would free nothing (``trim(for:)``).
public final class MemoryCache: ImageCaching, Sendable {
    private struct Entry {
        var image: LoadedImage
        var storedAt: ContinuousClock.Instant
    }

    /// The stored images in recency order, and the keys of each source (data, orientation and
    /// processors: the images that differ only in their decode size).
    private struct State {
        var list = LRUList<ImageCacheKey, Entry>()
        var bySource: [ImageCacheKey.Source: Set<ImageCacheKey>] = [:]

        /// Stores `entry` for `key`; returns what left the cache (an older image for `key`, an
        /// image of the same pixels under another key).
        mutating func set(_ entry: Entry, cost: Int, for key: ImageCacheKey) -> [Entry] {
            var left: [Entry] = []
            let source = key.source
            if let keys = bySource[source] {
                for other in keys where other != key {
                    if let stored = list.peek(other), stored.image.bitmap.sharesStorage(with: entry.image.bitmap),
                        let removed = remove(other)
                    {
                        left.append(removed)
                    }
                }
            }
            if let replaced = list.set(entry, cost: cost, for: key) { left.append(replaced) }
            bySource[source, default: []].insert(key)
            return left
        }

        /// Removes the entry for `key`.
        mutating func remove(_ key: ImageCacheKey) -> Entry? {
            guard let removed = list.remove(key) else { return nil }
            forget(key)
            return removed.value
        }

        /// Removes the least recently used entry.
        mutating func removeLeastRecent() -> Entry? {
            guard let removed = list.removeLeastRecent() else { return nil }
            forget(removed.key)
            return removed.value
        }

        mutating func removeAll() -> [Entry] {
            bySource = [:]
            return list.removeAll()
        }

        private mutating func forget(_ key: ImageCacheKey) {
            let source = key.source
            bySource[source]?.remove(key)
            if bySource[source]?.isEmpty == true { bySource[source] = nil }
        }
    }

    /// The most the stored images may cost in total, in bytes.
    public let costLimit: Int
    /// The most images stored.
    public let countLimit: Int
    /// How long an image stays valid after it is stored; `nil` means forever. Expired images are
    /// misses and are removed when looked up.
    public let timeToLive: Duration?

    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = LockedState(State())

    /// 15% of physical memory, at most 512 MiB.
    public static var defaultCostLimit: Int {
        let fraction = ProcessInfo.processInfo.physicalMemory / 100 * 15
        return Int(min(fraction, 512 * 1024 * 1024))
    }

    /// The default count limit: 1000 images.
    public static let defaultCountLimit = 1000

    /// Makes a cache.
    /// - Parameters:
    ///   - costLimit: Total bytes the images may take; defaults to ``defaultCostLimit``.
    ///   - countLimit: Most images kept; defaults to ``defaultCountLimit``.
    ///   - timeToLive: How long an image stays valid; `nil` (the default) means forever.
    ///   - now: The clock used for the time to live; tests inject their own.
    public init(
        costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = MemoryCache.defaultCountLimit,
        timeToLive: Duration? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
        self.timeToLive = timeToLive
        self.now = now
        MemoryPressureMonitor.shared.register(self)
    }

    /// The image for `key`, which becomes the most recently used; `nil` when absent or expired.
    public func image(for key: ImageCacheKey) -> LoadedImage? {
        guard let timeToLive else {
            return state.withLock { $0.list.value(for: key) { $0.image } }
        }
        let instant = now()
        let (image, expired) = state.withLock { state -> (LoadedImage?, Entry?) in
            guard let entry = state.list.peek(key) else { return (nil, nil) }
            if entry.storedAt.advanced(by: timeToLive) <= instant {
                return (nil, state.remove(key))
            }
            state.list.touch(key)
            return (entry.image, nil)
        }
        _ = expired  // released here, outside the lock
        return image
    }

    /// The image with the most pixels among those stored for `key`'s source (the same data,
    /// orientation and processors, decoded at any size), with its key; `nil` when there is none
    /// (or it expired). The order of recency does not change.
    public func image(sameSourceAs key: ImageCacheKey) -> (key: ImageCacheKey, image: LoadedImage)? {
        let instant = timeToLive == nil ? nil : now()
        return state.withLock { state -> (key: ImageCacheKey, image: LoadedImage)? in
            guard let keys = state.bySource[key.source] else { return nil }
            var best: (key: ImageCacheKey, image: LoadedImage)?
            for candidate in keys {
                guard let entry = state.list.peek(candidate) else { continue }
                if let instant, let timeToLive, entry.storedAt.advanced(by: timeToLive) <= instant { continue }
                if best.map({ $0.image.bitmap.size.pixelCount < entry.image.bitmap.size.pixelCount }) ?? true {
                    best = (candidate, entry.image)
                }
            }
            return best
        }
    }

    /// Stores `image` for `key` as the most recently used, evicting the least recently used
    /// images until the limits hold. An image costing more than ``costLimit`` is not stored (and
    /// an older image for `key` is removed). An image of the same pixels stored under another
    /// key of the same source moves to `key`: its pixels are charged once.
    public func store(_ image: LoadedImage, for key: ImageCacheKey) {
        let cost = image.cost
        guard cost <= costLimit, countLimit > 0 else {
            remove(for: key)
            return
        }
        let entry = Entry(image: image, storedAt: now())
        let evicted = state.withLock { state -> [Entry] in
            var evicted = state.set(entry, cost: cost, for: key)
            while state.list.totalCost > costLimit || state.list.count > countLimit,
                let removed = state.removeLeastRecent()
            {
                evicted.append(removed)
            }
            return evicted
        }
        _ = evicted  // released here, outside the lock
    }

    /// Removes the image for `key`.
    public func remove(for key: ImageCacheKey) {
        let removed = state.withLock { $0.remove(key) }
        _ = removed
    }

    /// Removes every image whose key `shouldRemove` picks.
    public func removeImages(where shouldRemove: (ImageCacheKey) -> Bool) {
        let removed = state.withLock { state -> [Entry] in
            state.list.keysByRecency.filter(shouldRemove).compactMap { state.remove($0) }
        }
        _ = removed  // released outside the lock
    }

    /// Removes every image.
    public func removeAll() {
        let removed = state.withLock { $0.removeAll() }
        _ = removed
    }

    /// Removes every expired image (lookups remove expired images too; this frees memory sooner).
    public func removeExpired() {
        guard let timeToLive else { return }
        let instant = now()
        let removed = state.withLock { state -> [Entry] in
            var removed: [Entry] = []
            for key in state.list.keysByRecency {
                if let entry = state.list.peek(key), entry.storedAt.advanced(by: timeToLive) <= instant,
                    let value = state.remove(key)
                {
                    removed.append(value)
                }
            }
            return removed
        }
        _ = removed
    }

    // MARK: Memory pressure

    /// Gives memory back for `pressure`: every image that only this cache holds goes on a
    /// ``MemoryPressure/warning`` or ``MemoryPressure/critical`` event; on
    /// ``MemoryPressure/background`` the least recently used of them go until the cache costs at
    /// most a tenth of ``costLimit``. Images a view still shows (some other copy of their pixels
    /// exists) stay: removing them would free nothing, and a view laid out again finds them.
    public func trim(for pressure: MemoryPressure) {
        switch pressure {
        case .warning, .critical: trim(toCost: 0)
        case .background: trim(toCost: costLimit / 10)
        }
    }

    /// Removes the least recently used images that only this cache holds until the total cost is
    /// at most `cost` (or none such is left).
    public func trim(toCost cost: Int) {
        let removed = state.withLock { state -> [Entry] in
            var removed: [Entry] = []
            for key in state.list.keysByRecency.reversed() where state.list.totalCost > cost {
                let onlyHere = state.list.withValue(for: key) { $0.image.isOnlyCopy() } ?? false
                if onlyHere, let entry = state.remove(key) { removed.append(entry) }
            }
            return removed
        }
        _ = removed  // released here, outside the lock
    }

    /// Total cost of the stored images, in bytes.
    public var totalCost: Int { state.withLock { $0.list.totalCost } }

    /// Number of stored images.
    public var count: Int { state.withLock { $0.list.count } }

    /// Whether an image is stored for `key` (expired or not); does not change the order.
    public func contains(_ key: ImageCacheKey) -> Bool { state.withLock { $0.list.contains(key) } }

    /// Keys from the most to the least recently used (for tests and diagnostics).
    var keysByRecency: [ImageCacheKey] { state.withLock { $0.list.keysByRecency } }
}
