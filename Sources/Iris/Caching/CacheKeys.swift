import Foundation

// The caches' two keys, as values: derived only in Pipeline/ImageRequestKeys.swift, where every key
// of a request is made; a cache only hashes and compares them.

/// Identifies a source's original data: the disk cache's key.
///
/// Kept as the source's own name and whether it is a `.data` id, so that deriving it on every
/// request (a memory hit included) builds no string; ``string`` spells it out for the disk cache.
struct DataKey: Hashable, Sendable {
    /// The URL (or what the cache-key filter made of it), the file path, the request's own
    /// cache key, or the `.data` source's id.
    let name: String
    /// Whether `name` is a `.data` source's id, which the disk cache keys as `data:<id>`.
    let isDataID: Bool
    /// The image service's rendition fetched instead of the source, when the pipeline has a
    /// service (``ImagePipeline/Configuration/imageService``).
    let rendition: RenditionKey?

    /// A key that is the source's name as it stands (a URL, a path, a given cache key), or a
    /// service's `rendition` of it.
    init(_ name: String, rendition: RenditionKey? = nil) {
        self.name = name
        isDataID = false
        self.rendition = rendition
    }

    /// The key of a `.data` source with `id`.
    init(dataID id: String) {
        name = id
        isDataID = true
        rendition = nil
    }

    /// The key as the disk cache stores it.
    var string: String {
        if let rendition { return "service(\(rendition.service)) \(rendition.rendition) \(name)" }
        return isDataID ? "data:" + name : name
    }

    /// The source's own key (no rendition): where the original's bytes are cached.
    var original: DataKey { rendition == nil ? self : DataKey(name) }

    /// Whether both keys name the same source, whichever rendition of it.
    func isSameSource(as other: DataKey) -> Bool { name == other.name && isDataID == other.isDataID }

    /// Hashes the name and the rendition's box, not the service's identity: one pipeline has one
    /// service, and a memory hit hashes its key on every lookup.
    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(rendition?.rendition)
    }
}

/// A service's rendition as a data key names it: what is asked for, and which service (its
/// ``ImageService/cacheIdentity``, read once per pipeline and shared by every key).
struct RenditionKey: Hashable, Sendable {
    let rendition: ImageRendition
    let service: String
}

/// The memory cache's key for a decoded, processed image: what the image is made of (the
/// source's data, the decode's target and orientation, the processors), without how the request
/// may use caches. Opaque: the pipeline makes it (``ImagePipeline/imageKey(for:)``); a custom
/// ``ImageCaching`` only hashes and compares it.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The source's data.
    let data: DataKey
    let target: DecodeTarget?
    let skipsOrientation: Bool
    let processors: [String]

    /// The key of an image made of `data`'s source.
    init(data: DataKey, target: DecodeTarget?, skipsOrientation: Bool, processors: [String]) {
        self.data = data
        self.target = target
        self.skipsOrientation = skipsOrientation
        self.processors = processors
    }

    /// A key made by hand (tests of caches); the pipeline's come from ``ImageRequestKeys``.
    init(dataKey: String, target: DecodeTarget? = nil, skipsOrientation: Bool = false, processors: [String] = []) {
        self.init(data: DataKey(dataKey), target: target, skipsOrientation: skipsOrientation, processors: processors)
    }

    /// Whether the two images are made from the same source's data (at any size, with any
    /// processors): what a view may keep showing while a larger decode of it loads.
    public func hasSameData(as other: ImageCacheKey) -> Bool { data.isSameSource(as: other.data) }

    /// What images of one source share whatever size they were decoded at: the data, the
    /// orientation switch and the processors. Two images with equal sources differ only in
    /// their decode size (a view may show one in place of the other while it decodes).
    public struct Source: Hashable, Sendable {
        /// The source's own data key (its rendition left out).
        let data: DataKey
        let skipsOrientation: Bool
        let processors: [String]
    }

    /// This key without its decode size.
    public var source: Source { Source(data: data.original, skipsOrientation: skipsOrientation, processors: processors) }

    /// Hashes what tells images apart in few steps: the source's name, the target and switches
    /// packed in two words, then any processors. A memory hit hashes its key once per lookup;
    /// equality still compares every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data.name)
        var flags = skipsOrientation ? 1 : 0
        if let target {
            flags |= 2 | (target.contentMode == .fill ? 4 : 0) | (target.allowsUpscaling ? 8 : 0)
        }
        hasher.combine(target?.size.width ?? 0)
        hasher.combine((target?.size.height ?? 0) &<< 4 | flags)
        for processor in processors { hasher.combine(processor) }
    }

    /// The data key, then the target, orientation and processors when set.
    public var description: String {
        var text = data.string
        if let target { text += " @\(target)" }
        if skipsOrientation { text += " unoriented" }
        if !processors.isEmpty { text += " | " + processors.joined(separator: " | ") }
        return text
    }
}
