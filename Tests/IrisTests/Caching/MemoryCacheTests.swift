import Foundation
import IrisSamples
import Testing
@testable import Iris

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let instant = LockedState(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
}

/// A grey image whose pixels take `cost` bytes, filled with `seed` so images can be told apart.
private func image(cost: Int, seed: UInt8 = 0) -> LoadedImage {
    let bitmap = Bitmap(width: cost, height: 1, format: .gray8, pixels: [UInt8](repeating: seed, count: cost))!
    return LoadedImage(bitmap: bitmap, format: .png, sourceSize: bitmap.size)
}

private func key(_ index: Int) -> ImageCacheKey { ImageCacheKey(dataKey: "https://example.com/\(index).jpg") }

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test func storesAndReturnsImagesByFullKey() throws {
        let cache = MemoryCache(costLimit: 1_000, countLimit: 10)
        let plain = ImageCacheKey(dataKey: "a")
        let resized = ImageCacheKey(dataKey: "a", target: DecodeTarget(width: 10, height: 10))
        let processed = ImageCacheKey(dataKey: "a", processors: ["blur(2)"])
        cache.store(image(cost: 10, seed: 1), for: plain)
        cache.store(image(cost: 10, seed: 2), for: resized)
        #expect(try #require(cache.image(for: plain)).bitmap.pixels.first == 1)
        #expect(try #require(cache.image(for: resized)).bitmap.pixels.first == 2)
        #expect(cache.image(for: processed) == nil)
        // Replacing keeps one entry and the new cost.
        cache.store(image(cost: 30, seed: 3), for: plain)
        #expect(cache.count == 2)
        #expect(cache.totalCost == 40)
        #expect(try #require(cache.image(for: plain)).bitmap.pixels.first == 3)
    }

    @Test func evictsLeastRecentlyUsedAndAccessRefreshes() {
        let cache = MemoryCache(costLimit: 300, countLimit: 100)
        for index in 0..<3 { cache.store(image(cost: 100), for: key(index)) }
        #expect(cache.keysByRecency == [key(2), key(1), key(0)])
        // Reading 0 makes 1 the least recently used.
        #expect(cache.image(for: key(0)) != nil)
        #expect(cache.keysByRecency == [key(0), key(2), key(1)])
        cache.store(image(cost: 100), for: key(3))
        #expect(cache.image(for: key(1)) == nil)
        #expect(cache.image(for: key(0)) != nil)
        #expect(cache.image(for: key(2)) != nil)
        #expect(cache.image(for: key(3)) != nil)
        #expect(cache.totalCost == 300)
    }

    @Test func honoursCostLimit() {
        let cache = MemoryCache(costLimit: 1_000, countLimit: 1_000)
        for index in 0..<50 {
            cache.store(image(cost: 70 + index), for: key(index))
            #expect(cache.totalCost <= 1_000)
        }
        // The newest entries survive: the longest run of newest entries that fits.
        var expected = 0
        var oldestKept = 50
        while oldestKept > 0, expected + 70 + (oldestKept - 1) <= 1_000 {
            oldestKept -= 1
            expected += 70 + oldestKept
        }
        #expect(cache.keysByRecency == (oldestKept..<50).reversed().map(key))
        #expect(cache.totalCost == expected)
    }

    @Test func honoursCountLimit() {
        let cache = MemoryCache(costLimit: 1_000_000, countLimit: 5)
        for index in 0..<12 { cache.store(image(cost: 1), for: key(index)) }
        #expect(cache.count == 5)
        #expect(cache.keysByRecency == (7..<12).reversed().map(key))
        #expect(cache.totalCost == 5)
    }

    @Test func refusesOversizeEntry() {
        let cache = MemoryCache(costLimit: 100, countLimit: 10)
        cache.store(image(cost: 60), for: key(0))
        cache.store(image(cost: 30), for: key(1))
        cache.store(image(cost: 101), for: key(2))
        #expect(cache.image(for: key(2)) == nil)
        // Nothing else was evicted to make room for it.
        #expect(cache.count == 2)
        #expect(cache.totalCost == 90)
        // An oversize replacement removes the stale image instead of keeping it.
        cache.store(image(cost: 500), for: key(0))
        #expect(cache.image(for: key(0)) == nil)
        #expect(cache.totalCost == 30)
        // A zero count limit stores nothing.
        let none = MemoryCache(costLimit: 100, countLimit: 0)
        none.store(image(cost: 1), for: key(0))
        #expect(none.count == 0)
    }

    @Test func expiresEntriesAfterTimeToLive() {
        let clock = ManualClock()
        let cache = MemoryCache(costLimit: 1_000, countLimit: 10, timeToLive: .seconds(60), now: { clock.now })
        cache.store(image(cost: 10), for: key(0))
        clock.advance(by: .seconds(30))
        cache.store(image(cost: 20), for: key(1))
        #expect(cache.image(for: key(0)) != nil)
        clock.advance(by: .seconds(31))  // key 0 is 61 s old, key 1 is 31 s old
        #expect(cache.image(for: key(0)) == nil)
        #expect(!cache.contains(key(0)))  // removed, not just hidden
        #expect(cache.totalCost == 20)
        #expect(cache.image(for: key(1)) != nil)
        // Storing again restarts the clock.
        cache.store(image(cost: 20), for: key(1))
        clock.advance(by: .seconds(59))
        #expect(cache.image(for: key(1)) != nil)
        clock.advance(by: .seconds(1))
        cache.removeExpired()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
    }

    @Test func removesOneOrAll() {
        let cache = MemoryCache(costLimit: 1_000, countLimit: 10)
        for index in 0..<4 { cache.store(image(cost: 10), for: key(index)) }
        cache.remove(for: key(1))
        #expect(cache.image(for: key(1)) == nil)
        #expect(cache.count == 3)
        #expect(cache.totalCost == 30)
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.image(for: key(0)) == nil)
        // Still usable after removeAll (slots are reused correctly).
        for index in 0..<4 { cache.store(image(cost: 10), for: key(index)) }
        #expect(cache.keysByRecency == (0..<4).reversed().map(key))
    }

    @Test func defaultLimitsAreSane() {
        let cache = MemoryCache()
        #expect(cache.costLimit > 0)
        #expect(cache.costLimit <= 512 * 1024 * 1024)
        #expect(cache.costLimit <= Int(ProcessInfo.processInfo.physicalMemory / 100 * 15))
        #expect(cache.countLimit == 1000)
    }

    @Test func concurrentUseKeepsInvariants() async {
        let cache = MemoryCache(costLimit: 20_000, countLimit: 150)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var generator = SplitMix(seed: UInt64(worker))
                    for _ in 0..<2_000 {
                        let index = Int(generator.next() % 300)
                        switch generator.next() % 10 {
                        case 0: cache.remove(for: key(index))
                        case 1...4: cache.store(image(cost: 1 + index, seed: UInt8(index % 256)), for: key(index))
                        default:
                            if let found = cache.image(for: key(index)) {
                                // Never another key's image.
                                #expect(found.cost == 1 + index)
                                #expect(found.bitmap.pixels.first == UInt8(index % 256))
                            }
                        }
                    }
                }
            }
        }
        let keys = cache.keysByRecency
        #expect(keys.count == cache.count)
        #expect(Set(keys).count == keys.count)
        #expect(cache.count <= 150)
        let sum = keys.reduce(0) { $0 + (cache.image(for: $1)?.cost ?? 0) }
        #expect(cache.totalCost == sum)
        #expect(cache.totalCost <= 20_000)
    }

    /// Prints (does not assert) the cost of a hit: the Mutex cache as shipped versus the same
    /// list behind an actor. Debug builds are much slower; see the report for release figures.
    @Test func measuresHitCost() async {
        let cache = MemoryCache(costLimit: 1 << 30, countLimit: 1_000)
        let keys = (0..<100).map {
            ImageCacheKey(
                dataKey: "https://example.com/images/photo-\($0).jpg",
                target: DecodeTarget(width: 300, height: 200))
        }
        for key in keys { cache.store(image(cost: 64), for: key) }
        let iterations = 100_000
        let clock = ContinuousClock()
        var hits = 0
        let mutexTime = clock.measure {
            for index in 0..<iterations where cache.image(for: keys[index % keys.count]) != nil { hits += 1 }
        }
        let actorCache = ActorImageCache()
        for key in keys { await actorCache.store(image(cost: 64), for: key) }
        var actorHits = 0
        let start = clock.now
        for index in 0..<iterations where await actorCache.image(for: keys[index % keys.count]) != nil { actorHits += 1 }
        let actorTime = clock.now - start
        #expect(hits == iterations)
        #expect(actorHits == iterations)
        let nanos = { (duration: Duration) in
            Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        }
        print(
            "MemoryCache hit: locked \(Int(nanos(mutexTime) / Double(iterations))) ns, actor (awaited from a nonisolated task) \(Int(nanos(actorTime) / Double(iterations))) ns"
        )
    }
}

/// The same LRU list behind an actor, to compare with the Mutex on the hit path.
private actor ActorImageCache {
    private var list = LRUList<ImageCacheKey, LoadedImage>()
    func image(for key: ImageCacheKey) -> LoadedImage? { list.value(for: key) }
    func store(_ image: LoadedImage, for key: ImageCacheKey) { list.set(image, cost: image.cost, for: key) }
}
