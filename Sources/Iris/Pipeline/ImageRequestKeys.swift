import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Every key the pipeline knows a request by, in one file. Each key nests the one upstream of it:
//
//     DataKey (the disk cache; Caching/CacheKeys.swift)
//       ⊂ FetchKey (+ cache policy, whether it reads the disk first: the fetch stage)
//         ⊂ ImageStageKey (+ target, orientation, processors: the image stage, ImageRequestIdentity)
//     ImageCacheKey = ImageStageKey without the cache policy (the memory cache; Caching/CacheKeys.swift)
//
// `ImageRequestKeys.derive(for:cacheKeyFilter:service:)` derives them from one request; nothing else builds a key.

/// The fetch stage's key: requests with equal keys share one fetch. The cache policy is part of
/// it: a request that may not load must not join a load, one that ignores caches must not join
/// a cache read.
struct FetchKey: Hashable, Sendable {
    let data: DataKey
    let cachePolicy: ImageRequest.CachePolicy
    /// Whether the fetch reads the disk cache before loading. A fetch that does follows, on a
    /// miss, the fetch of the same data that does not (``ImageRequestKeys/withoutDiskRead``): the one
    /// an image load follows after its own disk read, so the two share one download.
    let readsDisk: Bool
}

/// The image stage's key: the fetch, decoded at one target in one orientation, with the
/// processors' identifiers in order.
struct ImageStageKey: Hashable, Sendable {
    let fetch: FetchKey
    /// The size, in pixels, and content mode of the decode; `nil`: full size.
    let target: DecodeTarget?
    /// Whether orientation is left as stored.
    let skipsOrientation: Bool
    let processors: [String]
}

/// What makes two requests show the same image (a view reloads when it changes, as `.task(id:)`
/// does): the image stage's key, cache policy included. See ``ImagePipeline/identity(of:)``.
public struct ImageRequestIdentity: Hashable, Sendable {
    let key: ImageStageKey
}

/// Every key of one request in one pipeline, derived once (``ImagePipeline/keys(for:)``) for a
/// caller that reads the memory cache, compares requests and starts a task for the same request
/// (an image view showing it): the memory cache's key is derived first, on its own (a memory hit
/// needs nothing else); each stage's key is made from it when that stage is subscribed to.
public struct ImageRequestKeys: Sendable {
    /// The memory cache's key.
    public let image: ImageCacheKey
    /// The request's cache policy, part of every stage's key.
    let cachePolicy: ImageRequest.CachePolicy
    /// Whether the request may read the disk cache: its source goes through the data loader
    /// and its policy does not ignore caches.
    let readsDisk: Bool

    /// The disk cache's key.
    var data: DataKey { image.data }
    /// The disk cache's key of the request's data, as ``ImagePipeline/dataKey(for:)`` gives it.
    public var dataKey: String { data.string }
    /// The fetch stage's key.
    var fetch: FetchKey { FetchKey(data: data, cachePolicy: cachePolicy, readsDisk: readsDisk) }
    /// The image stage's key.
    var stage: ImageStageKey {
        ImageStageKey(fetch: fetch, target: image.target, skipsOrientation: image.skipsOrientation, processors: image.processors)
    }
    /// What the request shows (see ``ImageRequestIdentity``).
    public var identity: ImageRequestIdentity { ImageRequestIdentity(key: stage) }

    /// The same keys for the fetch that follows a disk read: it loads without reading the disk
    /// again.
    var withoutDiskRead: ImageRequestKeys { ImageRequestKeys(image: image, cachePolicy: cachePolicy, readsDisk: false) }
    /// The keys of the fetch that revalidates the stored data under HTTP's rules (reads the
    /// disk cache, uses a fresh entry, asks the origin about a stale one): one for every request
    /// of the data whatever its policy, so a revalidation in the background is done once.
    var forRevalidation: ImageRequestKeys { ImageRequestKeys(image: image, cachePolicy: .useProtocolCachePolicy, readsDisk: true) }

    /// The keys of `request`: its data key is the source's (``ImageRequest/Options/cacheKey``
    /// when set, else `cacheKeyFilter` applied to a URL source's URL, else the URL, file path or
    /// data id); the stages' keys add what each stage does.
    ///
    /// A static function, not an initializer: an initializer takes its arguments owned, which
    /// costs every call (a memory hit included) a copy of the request.
    /// With an image `service`, a URL it renders, requested at a target, is keyed as the
    /// service's rendition of it (``RenditionKey``).
    static func derive(
        for request: ImageRequest, cacheKeyFilter: (@Sendable (URL) -> String)?,
        service: ServiceRouting? = nil
    ) -> ImageRequestKeys {
        var (data, viaLoader) = dataKey(for: request, cacheKeyFilter: cacheKeyFilter)
        let target = request.decodeTarget
        if let service, let rendition = service.rendition(of: request, at: target) {
            data = DataKey(data.name, rendition: rendition)
        }
        return ImageRequestKeys(
            image: ImageCacheKey(
                data: data, target: target,
                skipsOrientation: request.options.skipsOrientation,
                processors: request.processors.map(\.identifier)),
            cachePolicy: request.cachePolicy,
            readsDisk: viaLoader && request.cachePolicy != .reloadIgnoringLocalCacheData)
    }

    /// The data key, and whether the source goes through the data loader (read in the same
    /// match over the source: a memory hit derives its keys on every call).
    private static func dataKey(for request: ImageRequest, cacheKeyFilter: (@Sendable (URL) -> String)?) -> (DataKey, viaLoader: Bool) {
        if let key = request.options.cacheKey { return (DataKey(key), request.source.usesDataLoader) }
        switch request.source {
        case .url(let url):
            return (DataKey(cacheKeyFilter?(url) ?? url.absoluteString), true)
        case .urlRequest(let urlRequest):
            guard let url = urlRequest.url else { return (DataKey(""), true) }
            return (DataKey(cacheKeyFilter?(url) ?? url.absoluteString), true)
        case .file(let url):
            return (DataKey(url.standardizedFileURL.path), false)
        case .data(let id, _):
            return (DataKey(dataID: id), false)
        }
    }
}
