import Foundation

extension ImagePipeline {
    /// The pipeline's caches, addressed by request: the decoded image in the memory cache (by
    /// the request's image key) and the original data in the disk cache (by its data key).
    public var cache: Cache { Cache(pipeline: self) }

    /// Reads, stores, checks and removes what the pipeline caches for a request.
    public struct Cache: Sendable {
        /// Which of the pipeline's caches an operation touches.
        public struct Stores: OptionSet, Sendable, Hashable {
            /// The stores as bits.
            public let rawValue: Int
            /// The stores whose bits are set in `rawValue`.
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// Decoded images in memory (``Configuration/memoryCache``).
            public static let memory = Stores(rawValue: 1)
            /// Original data on disk (``Configuration/dataCache``).
            public static let disk = Stores(rawValue: 2)
            /// Memory and disk.
            public static let all: Stores = [.memory, .disk]
        }

        let pipeline: ImagePipeline
        private var caches: PipelineCaches { pipeline.graph.caches }

        /// The decoded image for `request` in the memory cache, read synchronously so a view can
        /// show it in the same frame; `nil` when the request's policy ignores caches
        /// (``ImageRequest/CachePolicy/reloadIgnoringCache``). The one way to read the memory cache.
        public func image(for request: ImageRequest) -> LoadedImage? {
            caches.image(for: request, keys: pipeline.graph.keys(for: request))
        }

        /// The image with the most pixels that the memory cache holds of `request`'s source (its
        /// data, orientation and processors) decoded at any size: what a view can show in its
        /// first frame before it knows its slot (then it decodes again only if the slot needs
        /// more pixels). `nil` when the cache has none, or the request's policy ignores caches.
        public func imageOfSameSource(as request: ImageRequest) -> LoadedImage? {
            imageOfSameSource(as: request, keys: pipeline.graph.keys(for: request))
        }

        /// ``imageOfSameSource(as:)`` with `request`'s keys already derived
        /// (``ImagePipeline/keys(for:)``).
        public func imageOfSameSource(as request: ImageRequest, keys: ImageRequestKeys) -> LoadedImage? {
            caches.imageOfSameSource(for: request, keys: keys)
        }

        /// Puts `image` in the memory cache as `request`'s result.
        public func store(_ image: LoadedImage, for request: ImageRequest) {
            caches.storeImage(image, for: pipeline.imageKey(for: request))
        }

        /// The original data of `request` in the disk cache (reads a file: call off the main actor).
        public func data(for request: ImageRequest) -> Data? {
            caches.data(forKey: pipeline.dataKey(for: request))
        }

        /// Puts `data` in the disk cache as `request`'s original data, as a response that said
        /// nothing about caching, received now: fresh for the ``HTTPCachePolicy/defaultFreshness``
        /// of ``Configuration/httpCache``.
        public func storeData(_ data: Data, for request: ImageRequest) {
            caches.storeData(data, forKey: pipeline.dataKey(for: request))
        }

        /// Whether `stores` hold something for `request` (any of them).
        public func contains(_ request: ImageRequest, in stores: Stores = .all) -> Bool {
            let keys = pipeline.graph.keys(for: request)
            return (stores.contains(.memory) && caches.containsImage(for: keys.image))
                || (stores.contains(.disk) && caches.data(forKey: keys.data.string) != nil)
        }

        /// Removes what `stores` hold for `request`.
        public func remove(_ request: ImageRequest, from stores: Stores = .all) {
            let keys = pipeline.graph.keys(for: request)
            if stores.contains(.memory) { caches.removeImage(for: keys.image) }
            if stores.contains(.disk) { caches.removeData(forKey: keys.data.string) }
        }

        /// Empties `stores`.
        public func removeAll(from stores: Stores = .all) {
            if stores.contains(.memory) { caches.removeAllImages() }
            if stores.contains(.disk) { caches.removeAllData() }
        }
    }
}
