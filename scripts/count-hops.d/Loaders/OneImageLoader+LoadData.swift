// The loader for trees whose `DataLoading` requires `loadData(for:)` (before the one-method
// family of issue 19). count-hops copies this file or OneImageLoader+ByteLimit.swift into the
// driver, whichever the tree's protocol asks for; either one's work is outside Iris, so it adds
// no hops.
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
