import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identifies a source's original data: the disk cache's key and the fetch stage's.
struct DataKey: Hashable, Sendable {
    /// The key as the disk cache stores it.
    let string: String
}

/// Every key a request is known by, derived in one place: ``ImagePipeline/keys(for:)``.
struct RequestKeys: Sendable {
    /// The decoded, processed image: the memory cache's key and the process stage's.
    let image: ImageCacheKey

    /// The original data: the disk cache's key and the fetch stage's.
    var data: DataKey { DataKey(string: image.dataKey) }
}

extension ImagePipeline {
    /// The keys of `request`: its data key is the source's (``ImageRequest/Options/cacheKey``
    /// when set, else the configuration's ``Configuration/cacheKeyFilter`` applied to a URL
    /// source's URL, else the URL, file path or data id); its image key adds the target,
    /// orientation and processors.
    func keys(for request: ImageRequest) -> RequestKeys {
        RequestKeys(image: ImageCacheKey(dataKey: dataKeyString(for: request), target: request.decodeTarget,
                                         skipsOrientation: request.options.skipsOrientation,
                                         processors: request.processors.map(\.identifier)))
    }

    /// The key of `request`'s original data in the disk cache (see ``keys(for:)``).
    public func dataKey(for request: ImageRequest) -> String { dataKeyString(for: request) }

    /// The key of `request`'s decoded, processed image in the memory cache.
    public func imageKey(for request: ImageRequest) -> ImageCacheKey { keys(for: request).image }

    private func dataKeyString(for request: ImageRequest) -> String {
        if let key = request.options.cacheKey { return key }
        switch request.source {
        case .url(let url):
            return configuration.cacheKeyFilter?(url) ?? url.absoluteString
        case .urlRequest(let urlRequest):
            guard let url = urlRequest.url else { return "" }
            return configuration.cacheKeyFilter?(url) ?? url.absoluteString
        case .file(let url):
            return url.standardizedFileURL.path
        case .data(let id, _):
            return "data:" + id
        }
    }
}
