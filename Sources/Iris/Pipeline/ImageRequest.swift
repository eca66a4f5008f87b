import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What to load and how to show it: a source, the size it is shown at, processors, priority
/// and cache policy.
public struct ImageRequest: Sendable {
    /// Where the image data comes from.
    public enum Source: Sendable {
        /// A URL, loaded with the pipeline's ``DataLoading``.
        case url(URL)
        /// A full URL request (headers, method, cache policy).
        case urlRequest(URLRequest)
        /// A local file, read directly.
        case file(URL)
        /// Any async closure that returns encoded data: a photo library, a database…
        /// `id` identifies the data for caching and coalescing: a new id means reload.
        case data(id: String, load: @Sendable () async throws -> Data)
    }

    /// How urgent a request is. Shared work runs at the highest priority of its subscribers.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Prefetching far ahead.
        case veryLow
        /// Prefetching (``ImagePrefetcher``'s default).
        case low
        /// An image on screen (the default).
        case normal
        /// An image the user is waiting for.
        case high
        /// The one image that matters most now.
        case veryHigh
        /// Whether `lhs` is less urgent than `rhs`.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Which caches a request may read, whether it may load, and how HTTP's caching rules apply:
    /// the names and meanings of `URLRequest.CachePolicy`.
    public enum CachePolicy: Sendable, Hashable {
        /// HTTP's rules (the default): memory cache, then disk cache; stored data that is fresh
        /// is used without asking, stale data is revalidated with a conditional request (or shown
        /// at once and revalidated in the background, when `stale-while-revalidate` allows), then
        /// loaded.
        case useProtocolCachePolicy
        /// Always asks the origin before using stored data: a conditional request, whose `304`
        /// keeps the stored bytes (and the images decoded from them) at no body's cost.
        case reloadRevalidatingCacheData
        /// Stored data, fresh or stale, without asking (offline-first); loads only what is not
        /// stored.
        case returnCacheDataElseLoad
        /// Skips reading caches and loads (results are still stored).
        case reloadIgnoringLocalCacheData
        /// Only caches, fresh or stale; fails with ``ImageError/notCached`` when nothing is there.
        case returnCacheDataDontLoad

        /// HTTP's rules: the name from before HTTP caching, the same as
        /// ``useProtocolCachePolicy``.
        public static let useCache = CachePolicy.useProtocolCachePolicy
        /// Skips reading caches: the name from before HTTP caching, the same as
        /// ``reloadIgnoringLocalCacheData``.
        public static let reloadIgnoringCache = CachePolicy.reloadIgnoringLocalCacheData
    }

    /// Switches most requests leave alone: orientation, the cache key, keeping the original bytes.
    public struct Options: Sendable, Hashable {
        /// Keep the stored orientation instead of turning the image upright.
        public var skipsOrientation: Bool
        /// Replaces the source's own cache key (e.g. a URL without its signed query).
        public var cacheKey: String?
        /// Keep the original encoded bytes in ``LoadedImage/data``.
        public var keepsData: Bool
        /// Makes options; the defaults turn the image upright, key it by its source and drop the
        /// original bytes.
        public init(skipsOrientation: Bool = false, cacheKey: String? = nil, keepsData: Bool = false) {
            self.skipsOrientation = skipsOrientation
            self.cacheKey = cacheKey
            self.keepsData = keepsData
        }
    }

    /// Where the data comes from.
    public var source: Source
    /// The size the image is shown at, in **points**; the decoder shrinks the image to
    /// `targetSize × scale` **pixels** (``decodeTarget``). `nil` decodes at full size.
    public var targetSize: CGSize?
    /// Whether the decoded image fits inside `targetSize` or covers it.
    public var contentMode: ContentMode
    /// Pixels per point (the screen's scale): turns ``targetSize`` into pixels, and is handed
    /// out as ``LoadedImage/scale``.
    public var scale: Double
    /// Applied in order after decoding, to the image at its decoded pixel size.
    public var processors: [any ImageProcessing]
    /// Where the request's work goes in the pipeline's queues; shared work runs at the highest
    /// priority of the requests waiting on it. `.normal` by default.
    public var priority: Priority
    /// Whether caches are read, whether a miss may load and how HTTP's rules apply.
    /// ``CachePolicy/useProtocolCachePolicy`` by default.
    public var cachePolicy: CachePolicy
    /// Orientation, cache key and keeping the original bytes.
    public var options: Options

    /// Makes a request; by default for the full-size image at scale 1, unprocessed.
    public init(
        source: Source, targetSize: CGSize? = nil, contentMode: ContentMode = .fit, scale: Double = 1,
        processors: [any ImageProcessing] = [], priority: Priority = .normal,
        cachePolicy: CachePolicy = .useProtocolCachePolicy, options: Options = Options()
    ) {
        self.source = source
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.scale = scale
        self.processors = processors
        self.priority = priority
        self.cachePolicy = cachePolicy
        self.options = options
    }

    /// A request for a URL (`file:` URLs are read as files).
    public init(
        url: URL, targetSize: CGSize? = nil, contentMode: ContentMode = .fit, scale: Double = 1,
        processors: [any ImageProcessing] = [], priority: Priority = .normal,
        cachePolicy: CachePolicy = .useProtocolCachePolicy, options: Options = Options()
    ) {
        self.init(
            source: url.isFileURL ? .file(url) : .url(url), targetSize: targetSize, contentMode: contentMode,
            scale: scale, processors: processors, priority: priority, cachePolicy: cachePolicy, options: options)
    }

    /// The target the decoder shrinks to, in **pixels**: ``targetSize`` (points) × ``scale``,
    /// rounded; `nil` when no target size is set.
    public var decodeTarget: DecodeTarget? {
        guard let targetSize, targetSize.width > 0, targetSize.height > 0 else { return nil }
        let size = PixelSize(
            width: max(1, Int((Double(targetSize.width) * scale).rounded())),
            height: max(1, Int((Double(targetSize.height) * scale).rounded())))
        return DecodeTarget(size: size, contentMode: contentMode)
    }
}

extension ImageRequest.Source {
    /// Whether the data comes through the configuration's ``DataLoading`` (and so through the
    /// disk cache): `.url` and `.urlRequest`; files and `.data` closures are read directly.
    var usesDataLoader: Bool {
        switch self {
        case .url, .urlRequest: true
        case .file, .data: false
        }
    }
}

extension ImageRequest.Priority {
    /// The Swift task priority work at this priority runs with.
    var taskPriority: TaskPriority {
        switch self {
        case .veryLow: .background
        case .low: .utility
        case .normal: .medium
        case .high: .userInitiated
        case .veryHigh: .high
        }
    }
}
