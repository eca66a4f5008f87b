import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Every key the pipeline knows a request by, in one file. Each key nests the one upstream of it:
//
//     DataKey (the disk cache)
//       ⊂ FetchKey (+ cache policy: the fetch stage)
//         ⊂ DecodeKey (+ target, orientation: the decode stage)
//           ⊂ ProcessKey (+ processors: the process stage, ImageRequestIdentity)
//     ImageCacheKey = ProcessKey without the cache policy (the memory cache)
//
// `RequestKeys(for:cacheKeyFilter:)` derives them from one request; nothing else builds a key.

/// Identifies a source's original data: the disk cache's key.
struct DataKey: Hashable, Sendable {
    /// The key as the disk cache stores it.
    let string: String
}

/// The fetch stage's key: requests with equal keys share one fetch. The cache policy is part of
/// it: a request that may not load must not join a load, one that ignores caches must not join
/// a cache read.
struct FetchKey: Hashable, Sendable {
    let data: DataKey
    let cachePolicy: ImageRequest.CachePolicy
}

/// The decode stage's key: the fetch, decoded at one target in one orientation.
struct DecodeKey: Hashable, Sendable {
    let fetch: FetchKey
    /// The size, in pixels, and content mode of the decode; `nil`: full size.
    let target: DecodeTarget?
    /// Whether orientation is left as stored.
    let skipsOrientation: Bool
}

/// The process stage's key: the decode, with the processors' identifiers in order.
struct ProcessKey: Hashable, Sendable {
    let decode: DecodeKey
    let processors: [String]
}

/// The memory cache's key for a decoded, processed image: what the image is made of (the
/// source's data, the decode's target and orientation, the processors), without how the request
/// may use caches. Opaque: the pipeline makes it (``ImagePipeline/imageKey(for:)``); a custom
/// ``ImageCaching`` only hashes and compares it.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The source's data key (``ImagePipeline/dataKey(for:)``).
    package let dataKey: String
    let target: DecodeTarget?
    let skipsOrientation: Bool
    let processors: [String]

    /// A key made by hand (tests of caches); the pipeline's come from ``RequestKeys``.
    init(dataKey: String, target: DecodeTarget? = nil, skipsOrientation: Bool = false, processors: [String] = []) {
        self.dataKey = dataKey
        self.target = target
        self.skipsOrientation = skipsOrientation
        self.processors = processors
    }

    /// Whether the two images are made from the same source's data (at any size, with any
    /// processors): what a view may keep showing while a larger decode of it loads.
    package func hasSameData(as other: ImageCacheKey) -> Bool { dataKey == other.dataKey }

    /// The data key, then the target, orientation and processors when set.
    public var description: String {
        var text = dataKey
        if let target { text += " @\(target)" }
        if skipsOrientation { text += " unoriented" }
        if !processors.isEmpty { text += " | " + processors.joined(separator: " | ") }
        return text
    }
}

/// What makes two requests show the same image (a view reloads when it changes, as `.task(id:)`
/// does): the process stage's key, cache policy included. See ``ImagePipeline/identity(of:)``.
public struct ImageRequestIdentity: Hashable, Sendable {
    let key: ProcessKey
}

/// Every key of one request. The memory cache's key is derived first, on its own (a memory hit
/// needs nothing else); each stage's key is made from it when that stage is subscribed to.
package struct RequestKeys: Sendable {
    /// The memory cache's key.
    package let image: ImageCacheKey
    /// The request's cache policy, part of every stage's key.
    let cachePolicy: ImageRequest.CachePolicy

    /// The disk cache's key.
    var data: DataKey { DataKey(string: image.dataKey) }
    /// The fetch stage's key.
    var fetch: FetchKey { FetchKey(data: data, cachePolicy: cachePolicy) }
    /// The decode stage's key.
    var decode: DecodeKey { DecodeKey(fetch: fetch, target: image.target, skipsOrientation: image.skipsOrientation) }
    /// The process stage's key.
    var process: ProcessKey { ProcessKey(decode: decode, processors: image.processors) }
    /// What the request shows (see ``ImageRequestIdentity``).
    package var identity: ImageRequestIdentity { ImageRequestIdentity(key: process) }

    /// The keys of `request`: its data key is the source's (``ImageRequest/Options/cacheKey``
    /// when set, else `cacheKeyFilter` applied to a URL source's URL, else the URL, file path or
    /// data id); the stages' keys add what each stage does.
    init(for request: ImageRequest, cacheKeyFilter: (@Sendable (URL) -> String)?) {
        image = ImageCacheKey(dataKey: Self.dataKeyString(for: request, cacheKeyFilter: cacheKeyFilter),
                              target: request.decodeTarget, skipsOrientation: request.options.skipsOrientation,
                              processors: request.processors.map(\.identifier))
        cachePolicy = request.cachePolicy
    }

    private static func dataKeyString(for request: ImageRequest, cacheKeyFilter: (@Sendable (URL) -> String)?) -> String {
        if let key = request.options.cacheKey { return key }
        switch request.source {
        case .url(let url):
            return cacheKeyFilter?(url) ?? url.absoluteString
        case .urlRequest(let urlRequest):
            guard let url = urlRequest.url else { return "" }
            return cacheKeyFilter?(url) ?? url.absoluteString
        case .file(let url):
            return url.standardizedFileURL.path
        case .data(let id, _):
            return "data:" + id
        }
    }
}
