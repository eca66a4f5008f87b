import Foundation

extension ImagePipeline {
    /// Where an ``ImagePipeline`` gets data, where it caches, how it decodes and how much it
    /// runs at once.
    public struct Configuration: Sendable {
        /// Loads `.url` and `.urlRequest` sources.
        public var dataLoader: any DataLoading
        /// Original encoded data of `.url` and `.urlRequest` sources, read before loading and
        /// written after. `nil`: no disk cache.
        public var dataCache: (any DataCaching)?
        /// Decoded, processed images, read synchronously before anything else. `nil`: none.
        public var memoryCache: (any ImageCaching)?
        /// Picks a decoder by the data's format (sniffed from its first bytes) and decodes at the
        /// request's target. ``ImageDecoderRegistry/standard`` by default.
        public var decoders: ImageDecoderRegistry
        /// Bounds every decode must stay within.
        public var limits: DecodingLimits
        /// The most data loads running at once (network, files and `.data` closures alike).
        public var maxConcurrentDownloads: Int
        /// The most disk-cache reads running at once in their own queue: reads for original
        /// data (``ImagePipeline/data(for:)``, prefetching to disk). An image request reads the
        /// disk cache in its decode job (``maxConcurrentDecodes``) and decodes a hit there.
        public var maxConcurrentDataCacheReads: Int
        /// The most decodes running at once.
        public var maxConcurrentDecodes: Int
        /// The most processor chains running at once.
        public var maxConcurrentProcessing: Int
        /// Turns a `.url` / `.urlRequest` source's URL into its cache key, e.g. to drop a signed
        /// URL's volatile query parameters. Applies to the disk cache, the memory cache and
        /// coalescing; ``ImageRequest/Options/cacheKey`` still wins when set.
        public var cacheKeyFilter: (@Sendable (URL) -> String)?
        /// Downloads cancelled after some bytes, kept (within its byte budget) so the next load of
        /// the same data asks only for the rest (the pipeline adds `Range` and `If-Range`, with
        /// any ``DataLoading``), when the server named a validator. `nil`: never resume.
        public var resumableData: ResumableDataStore?
        /// The most bytes of encoded data the pipeline takes from one source: a response whose
        /// `Content-Length` announces more fails before its body is read, and a body that grows
        /// past it (no or a wrong `Content-Length`, a server that never stops) is cancelled as
        /// soon as it does. Either fails with ``ImageError/overLimit(_:)``
        /// (``ImageError/LimitViolation/encodedBytes(bytes:limit:)``); nothing reaches the disk
        /// cache. Applies to the data loader's downloads and to what `.data` closures return;
        /// `.file` sources are mapped, not read into memory, and are bounded by ``limits``.
        /// 256 MiB by default (``defaultMaxDataBytes``).
        public var maxDataBytes: Int
        /// Decode previews while progressive JPEGs arrive from the data loader: after each
        /// completed scan (one preview decode at a time per image), delivered through
        /// ``ImageTask/previews``. Off by default.
        public var isProgressiveDecodingEnabled: Bool
        /// An image service (``ImgproxyService``, or your own ``ImageService``) that renders
        /// `http(s)` sources at the size they are shown: a request with a target size (what the
        /// views make for their slot) fetches the service's rendition at a size of its ladder
        /// instead of the original, and falls back to the original when the service fails
        /// (``FetchedData/serviceFallback``; see ``ImageService`` for what goes where). `nil` (the default) always fetches the original.
        public var imageService: (any ImageService)?

        /// How long the ``imageService`` has to begin answering before the original is loaded
        /// instead, and how long a failed service is then skipped (``ImageServiceFailover``).
        public var imageServiceFailover = ImageServiceFailover()

        /// How HTTP's caching rules apply to the data in ``dataCache`` and the images decoded
        /// from it: freshness, revalidation, stale data shown while it is revalidated, and the
        /// clock they run on. HTTP's rules by default; ``HTTPCachePolicy/keepForever`` keeps every
        /// entry until the disk cache evicts it by size (versioned URLs).
        public var httpCache: HTTPCachePolicy = HTTPCachePolicy()

        /// Makes a configuration. Loads go through a new ``URLSessionDataLoader`` unless another
        /// loader is given; decoded images are kept in a new ``MemoryCache`` (pass `nil` for
        /// none); no disk cache unless given. Decodes and processing default to one per
        /// active core.
        public init(
            dataLoader: any DataLoading = URLSessionDataLoader(),
            dataCache: (any DataCaching)? = nil,
            memoryCache: (any ImageCaching)? = MemoryCache(),
            decoders: ImageDecoderRegistry = .standard,
            limits: DecodingLimits = .default,
            maxConcurrentDownloads: Int = 6,
            maxConcurrentDataCacheReads: Int = 2,
            maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
            maxConcurrentProcessing: Int = ProcessInfo.processInfo.activeProcessorCount,
            cacheKeyFilter: (@Sendable (URL) -> String)? = nil,
            resumableData: ResumableDataStore? = ResumableDataStore(),
            isProgressiveDecodingEnabled: Bool = false,
            maxDataBytes: Int = Configuration.defaultMaxDataBytes
        ) {
            self.dataLoader = dataLoader
            self.dataCache = dataCache
            self.memoryCache = memoryCache
            self.decoders = decoders
            self.limits = limits
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.maxConcurrentDataCacheReads = maxConcurrentDataCacheReads
            self.maxConcurrentDecodes = maxConcurrentDecodes
            self.maxConcurrentProcessing = maxConcurrentProcessing
            self.cacheKeyFilter = cacheKeyFilter
            self.resumableData = resumableData
            self.isProgressiveDecodingEnabled = isProgressiveDecodingEnabled
            self.maxDataBytes = maxDataBytes
        }

        /// The default ``maxDataBytes``: 256 MiB, far above any image a screen shows, low enough
        /// that a body without end cannot exhaust memory.
        public static let defaultMaxDataBytes = 256 * 1024 * 1024
    }
}
