#if IRIS_TESTABLE
import Foundation
@testable import Iris

// Helpers for tests of HTTP caching: a wall clock the test moves and a pipeline "relaunched" over
// the same disk-cache folder.

/// A wall clock that moves only when the test says so (``HTTPCachePolicy/now``).
package final class ManualWallClock: Sendable {
    private let date: LockedState<Date>

    /// Starts at `start` (the real time by default, so `Date` headers near it make sense).
    package init(start: Date = Date()) { date = LockedState(start) }

    /// The time now.
    package var now: Date { date.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) { date.withLock { $0 += seconds } }

    /// The policy of HTTP's rules on this clock, with `configure` applied.
    package func policy(_ configure: (inout HTTPCachePolicy) -> Void = { _ in }) -> HTTPCachePolicy {
        var policy = HTTPCachePolicy(now: { [self] in now })
        configure(&policy)
        return policy
    }
}

extension ImagePipeline {
    /// A pipeline as an app makes it at launch: URLSession's loader, a disk cache in `folder`
    /// (the same folder each launch), HTTP's rules on `clock`, and a memory cache when asked.
    package static func launched(
        diskCache folder: URL, clock: ManualWallClock, memoryCache: MemoryCache? = nil,
        policy configure: (inout HTTPCachePolicy) -> Void = { _ in }
    ) throws -> (ImagePipeline, DataCache) {
        let disk = try DataCache(directory: folder)
        var configuration = Configuration(
            dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: disk, memoryCache: memoryCache,
            resumableData: nil)
        configuration.httpCache = clock.policy(configure)
        return (ImagePipeline(configuration: configuration), disk)
    }
}

/// A new empty folder under the temporary directory.
package func temporaryCacheFolder(_ name: String = "http-cache") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-\(name)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
#endif
