import Foundation

extension ImagePipeline {
    /// The original encoded bytes of `request`'s source: from the disk cache, or loaded (and then
    /// stored there), shared with image loads of the same data in flight. Cancelling the calling
    /// task leaves the shared load and throws ``ImageError/cancelled``.
    public func data(for request: ImageRequest) async throws(ImageError) -> Data {
        let dataKey = DataKey(string: dataKey(for: request))
        return try await countingLive {
            await StageWaiter.result { observer in
                fetchData(request, dataKey: dataKey, priority: request.priority, observer: observer)
            }
        }.get()
    }

    /// Starts from a configuration made by `configure`:
    /// `ImagePipeline { $0.dataCache = try? DataCache(directory: url) }`.
    public convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }
}
