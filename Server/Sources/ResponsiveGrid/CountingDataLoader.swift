import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import Synchronization

/// A ``DataLoading`` that passes every load to another and counts what the app received: the
/// body bytes, and each URL requested (how often), so a test or a benchmark can say what a
/// screen of images cost on the wire.
public final class CountingDataLoader: DataLoading {
    /// What was loaded so far.
    public struct Tally: Sendable {
        /// Body bytes received, every load together.
        public var bytes = 0
        /// Requests per URL.
        public var requests: [URL: Int] = [:]

        /// Requests made, every URL together.
        public var requestCount: Int { requests.values.reduce(0, +) }
    }

    private let loader: any DataLoading
    private let state = Mutex(Tally())

    /// Counts the loads of `loader`.
    public init(_ loader: any DataLoading) {
        self.loader = loader
    }

    /// What was loaded so far.
    public var tally: Tally { state.withLock { $0 } }

    /// The other loader's stream of `request`, counted as it passes.
    public func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        if let url = request.url { state.withLock { $0.requests[url, default: 0] += 1 } }
        let upstream = loader.loadData(for: request, byteLimit: byteLimit)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in upstream {
                        if case .chunk(let data) = event { self.state.withLock { $0.bytes += data.count } }
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
