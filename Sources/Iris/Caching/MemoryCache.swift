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
/// Under memory pressure (``MemoryPressure``: a memory warning, the app entering the background,
/// the system's memory-pressure events, as ``MemoryPressureMonitor`` reports them) the cache
/// gives back what it alone keeps alive; images some view still shows stay, since dropping them
/// would free nothing (``trim(for:)``).
public final class MemoryCache: ImageCaching, Sendable {
    private struct Entry {
        var image: LoadedImage
        var storedAt: ContinuousClock.Instant
    }

    /// The most the stored images may cost in total, in bytes.
    public let costLimit: Int
    /// The most images stored.
    public let countLimit: Int
    /// How long an image stays valid after it is stored; `nil` means forever. Expired images are
    /// misses and are removed when looked up.
    public let timeToLive: Duration?

    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = LockedState(LRUList<ImageCacheKey, Entry>())

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
    public init(costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = MemoryCache.defaultCountLimit,
                timeToLive: Duration? = nil,
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
        self.timeToLive = timeToLive
        self.now = now
        MemoryPressureMonitor.shared.register(self)
    }

    /// The image for `key`, which becomes the most recently used; `nil` when absent or expired.
    public func image(for key: ImageCacheKey) -> LoadedImage? {
        guard let timeToLive else {
            return state.withLock { $0.value(for: key) { $0.image } }
        }
        let instant = now()
        let (image, expired) = state.withLock { list -> (LoadedImage?, Entry?) in
            guard let entry = list.peek(key) else { return (nil, nil) }
            if entry.storedAt.advanced(by: timeToLive) <= instant {
                return (nil, list.remove(key)?.value)
            }
            list.touch(key)
            return (entry.image, nil)
        }
        _ = expired // released here, outside the lock
        return image
    }

    /// Stores `image` for `key` as the most recently used, evicting the least recently used
    /// images until the limits hold. An image costing more than ``costLimit`` is not stored (and
    /// an older image for `key` is removed).
    public func store(_ image: LoadedImage, for key: ImageCacheKey) {
        let cost = image.cost
        guard cost <= costLimit, countLimit > 0 else {
            remove(for: key)
            return
        }
        let entry = Entry(image: image, storedAt: now())
        let evicted = state.withLock { list -> [Entry] in
            var evicted: [Entry] = []
            if let replaced = list.set(entry, cost: cost, for: key) { evicted.append(replaced) }
            while list.totalCost > costLimit || list.count > countLimit,
                  let removed = list.removeLeastRecent() {
                evicted.append(removed.value)
            }
            return evicted
        }
        _ = evicted // released here, outside the lock
    }

    /// Removes the image for `key`.
    public func remove(for key: ImageCacheKey) {
        let removed = state.withLock { $0.remove(key) }
        _ = removed
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
        let removed = state.withLock { list -> [Entry] in
            var removed: [Entry] = []
            for key in list.keysByRecency {
                if let entry = list.peek(key), entry.storedAt.advanced(by: timeToLive) <= instant,
                   let value = list.remove(key)?.value {
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
        let removed = state.withLock { list -> [Entry] in
            var removed: [Entry] = []
            for key in list.keysByRecency.reversed() where list.totalCost > cost {
                let onlyHere = list.withValue(for: key) { $0.image.isOnlyCopy() } ?? false
                if onlyHere, let entry = list.remove(key) { removed.append(entry.value) }
            }
            return removed
        }
        _ = removed // released here, outside the lock
    }

    /// Total cost of the stored images, in bytes.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// Number of stored images.
    public var count: Int { state.withLock { $0.count } }

    /// Whether an image is stored for `key` (expired or not); does not change the order.
    public func contains(_ key: ImageCacheKey) -> Bool { state.withLock { $0.contains(key) } }

    /// Keys from the most to the least recently used (for tests and diagnostics).
    var keysByRecency: [ImageCacheKey] { state.withLock { $0.keysByRecency } }
}
