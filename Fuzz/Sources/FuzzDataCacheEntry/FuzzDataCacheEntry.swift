import Foundation
import FuzzDriver
import Iris

/// Any bytes in a disk-cache entry file read as a miss or as data, never a crash; what is
/// read twice reads the same.
@_cdecl("FuzzDataCacheEntry_main")
func fuzzDataCacheEntryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = DataCacheFixture.shared         // made before the first input
    return runFuzzer(argc, argv) { bytes, count in
        let cache = DataCacheFixture.shared.cache
        let key = DataCacheFixture.key
        // A real entry first (the index knows it, its file is written), then its file replaced.
        cache.store(Data("seed".utf8), for: key)
        cache.waitForPendingWritesBlocking()
        let entry = cache.fileURL(for: key)
        try? fuzzData(bytes, count).write(to: entry)
        if let first = cache.data(for: key) {
            // Read as data: the file is a well-formed entry, and reads the same again.
            precondition(cache.data(for: key) == first, "an entry read two ways")
        } else {
            // Read as a miss: a damaged entry is gone, not served later.
            precondition(cache.data(for: key) == nil, "a damaged entry read later")
        }
        return 0
    }
}

/// One cache directory for the whole run.
final class DataCacheFixture: Sendable {
    static let key = "https://example.com/fuzzed.png"
    static let shared = DataCacheFixture()
    let cache: DataCache

    private init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-fuzz-cache-\(getpid())")
        cache = try! DataCache(directory: directory, synchronizesWrites: false)
    }
}
