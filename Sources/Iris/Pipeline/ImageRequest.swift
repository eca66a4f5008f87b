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
        case veryLow, low, normal, high, veryHigh
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Which caches a request may read and whether it may load.
    public enum CachePolicy: Sendable, Hashable {
        /// Memory cache, then disk cache, then load.
        case useCache
        /// Skip reading caches (results are still stored).
        case reloadIgnoringCache
        /// Only caches; fail with ``ImageError/notCached`` when nothing is there.
        case returnCacheDataDontLoad
    }

    /// Less common switches.
    public struct Options: Sendable, Hashable {
        /// Keep the stored orientation instead of turning the image upright.
        public var skipsOrientation: Bool
        /// Replaces the source's own cache key (e.g. a URL without its signed query).
        public var cacheKey: String?
        /// Keep the original encoded bytes in ``LoadedImage/data``.
        public var keepsData: Bool
        /// Makes options.
        public init(skipsOrientation: Bool = false, cacheKey: String? = nil, keepsData: Bool = false) {
            self.skipsOrientation = skipsOrientation
            self.cacheKey = cacheKey
            self.keepsData = keepsData
        }
    }

    /// Where the data comes from.
    public var source: Source
    /// Size the image is shown at, in points; the decoder shrinks to `targetSize × scale`
    /// pixels. `nil` decodes at full size.
    public var targetSize: CGSize?
    /// Fit inside or cover `targetSize`.
    public var contentMode: ContentMode
    /// Pixels per point (the screen's scale).
    public var scale: Double
    /// Applied in order after decoding.
    public var processors: [any ImageProcessing]
    /// How urgent.
    public var priority: Priority
    /// Which caches to use.
    public var cachePolicy: CachePolicy
    /// Less common switches.
    public var options: Options

    /// Makes a request.
    public init(source: Source, targetSize: CGSize? = nil, contentMode: ContentMode = .fit, scale: Double = 1,
                processors: [any ImageProcessing] = [], priority: Priority = .normal,
                cachePolicy: CachePolicy = .useCache, options: Options = Options()) {
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
    public init(url: URL, targetSize: CGSize? = nil, contentMode: ContentMode = .fit, scale: Double = 1,
                processors: [any ImageProcessing] = [], priority: Priority = .normal,
                cachePolicy: CachePolicy = .useCache, options: Options = Options()) {
        self.init(source: url.isFileURL ? .file(url) : .url(url), targetSize: targetSize, contentMode: contentMode,
                  scale: scale, processors: processors, priority: priority, cachePolicy: cachePolicy, options: options)
    }

    /// The pixel target the decoder shrinks to, if a target size is set.
    public var decodeTarget: DecodeTarget? {
        guard let targetSize, targetSize.width > 0, targetSize.height > 0 else { return nil }
        let size = PixelSize(width: max(1, Int((Double(targetSize.width) * scale).rounded())),
                             height: max(1, Int((Double(targetSize.height) * scale).rounded())))
        return DecodeTarget(size: size, contentMode: contentMode)
    }

    /// Identifies the source's data: the key of the disk cache and of download coalescing.
    public var dataKey: String {
        if let key = options.cacheKey { return key }
        switch source {
        case .url(let url): return url.absoluteString
        case .urlRequest(let request): return request.url?.absoluteString ?? ""
        case .file(let url): return url.standardizedFileURL.path
        case .data(let id, _): return "data:" + id
        }
    }

    /// Identifies the decoded result: the key of the memory cache and of decode coalescing.
    public var imageKey: ImageCacheKey {
        ImageCacheKey(dataKey: dataKey, target: decodeTarget, skipsOrientation: options.skipsOrientation,
                      processors: processors.map(\.identifier))
    }
}

/// Identifies a decoded, processed image: source + target + orientation + processors.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The source's data key.
    public var dataKey: String
    /// The decode target, if any.
    public var target: DecodeTarget?
    /// Whether orientation was left as stored.
    public var skipsOrientation: Bool
    /// Identifiers of the processors, in order.
    public var processors: [String]

    /// Makes a key.
    public init(dataKey: String, target: DecodeTarget? = nil, skipsOrientation: Bool = false, processors: [String] = []) {
        self.dataKey = dataKey
        self.target = target
        self.skipsOrientation = skipsOrientation
        self.processors = processors
    }

    /// The key without processors: identifies the decode stage.
    public var decodeKey: ImageCacheKey {
        ImageCacheKey(dataKey: dataKey, target: target, skipsOrientation: skipsOrientation)
    }

    public var description: String {
        var text = dataKey
        if let target { text += " @\(target)" }
        if skipsOrientation { text += " unoriented" }
        if !processors.isEmpty { text += " | " + processors.joined(separator: " | ") }
        return text
    }
}
