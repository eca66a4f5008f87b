import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The loader branch replaces `PendingDataLoader()` below with `URLSessionDataLoader()` (and the
// caches with the shared MemoryCache / DataCache) when it lands.

extension ImagePipeline {
    /// The pipeline used when none is given.
    public static let shared = ImagePipeline(configuration: Configuration(dataLoader: PendingDataLoader()))
}

/// Stand-in until the URLSession loader is merged: every network load fails with a readable
/// error. Files and `.data` sources work.
struct PendingDataLoader: DataLoading {
    func loadData(for request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.finish(throwing: ImageError.network(reason: "no data loader is configured", url: request.url))
        }
    }
}
