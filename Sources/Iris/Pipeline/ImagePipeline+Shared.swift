import Foundation

extension ImagePipeline {
    /// The pipeline used when none is given: a ``URLSessionDataLoader``, a ``MemoryCache`` with
    /// the default limits, and a ``DataCache`` in the user's caches directory under "Iris" (no
    /// disk cache when that directory cannot be made).
    public static let shared = ImagePipeline(
        configuration: Configuration(
            dataLoader: URLSessionDataLoader(),
            dataCache: sharedDataCache(),
            memoryCache: MemoryCache()))

    /// The shared disk cache, or nil when its directory cannot be made.
    private static func sharedDataCache() -> DataCache? {
        guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else { return nil }
        return try? DataCache(directory: caches.appendingPathComponent("Iris", isDirectory: true))
    }
}
