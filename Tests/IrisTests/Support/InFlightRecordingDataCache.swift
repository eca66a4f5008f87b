import Foundation
@testable import Iris
import IrisTestSupport

/// A plain dictionary data cache that notes, at each read, what the pipeline has in flight
/// (`record` says how to read it): which stage and job a read runs in.
final class InFlightRecordingDataCache: DataCaching {
    private let base = PipelineTestDataCache()
    private let snapshot = LockedState<(@Sendable () -> PipelineGraph.InFlight)?>(nil)
    private let reads = LockedState<[PipelineGraph.InFlight]>([])

    /// Reads `inFlight` at every later read of the cache.
    func record(_ inFlight: @escaping @Sendable () -> PipelineGraph.InFlight) { snapshot.withLock { $0 = inFlight } }
    /// The snapshots taken so far, oldest first; forgets them.
    func takeReads() -> [PipelineGraph.InFlight] {
        reads.withLock { reads in
            defer { reads = [] }
            return reads
        }
    }

    func entry(for key: String) -> DataCacheEntry? {
        if let inFlight = snapshot.withLock({ $0 }) {
            let now = inFlight()
            reads.withLock { $0.append(now) }
        }
        return base.entry(for: key)
    }
    func store(_ entry: DataCacheEntry, for key: String) { base.store(entry, for: key) }
    func remove(for key: String) { base.remove(for: key) }
    func removeAll() { base.removeAll() }
}
