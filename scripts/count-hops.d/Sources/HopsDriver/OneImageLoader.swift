// The only part of the driver that depends on the loader protocol: if `DataLoading` changes,
// adapt this file (its work is outside Iris, so it adds no hops either way).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import Synchronization

/// Serves one image from memory: a 200 response announcing its length, then the whole body as
/// one chunk. Counts its loads, so the driver can check that the request reached it once.
final class OneImageLoader: DataLoading {
    let bytes: Data
    let loads = Mutex(0)

    init(bytes: Data) { self.bytes = bytes }

    func loadData(for request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        loads.withLock { $0 += 1 }
        let bytes = bytes
        return AsyncThrowingStream { continuation in
            continuation.yield(.response(statusCode: 200, expectedLength: bytes.count, mimeType: "image/png"))
            continuation.yield(.chunk(bytes))
            continuation.finish()
        }
    }
}
