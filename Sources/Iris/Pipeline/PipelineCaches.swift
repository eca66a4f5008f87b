import Foundation

// Every read, write and removal of a pipeline's two caches, and the rules of which request may
// use them, in one file. Nothing else touches the caches: the stages, the pipeline's entry
// points, the prefetcher and `ImagePipeline.Cache` ask this type.
//
//   memory (decoded images, by ImageCacheKey)   read:  ImagePipeline / ImageTask / prefetch, before any stage
//                                               write: ImageStage, with its result
//   disk (original bytes + HTTP metadata,       read:  once per load, in a job of the stage that needs
//         by DataKey)                                  the bytes first (ImageStage for an image,
//                                                      FetchDataStage for data(for:), prefetch to disk
//                                                      and revalidation)
//                                               write: FetchDataStage, after a load or a 304
//                                               remove: ImageStage, bytes that do not decode
//
// Freshness (HTTP's rules, `httpCache`) is read here too: of a disk entry, and of a memory
// image, which carries the metadata of the bytes it was decoded from.

/// The memory cache and the disk cache of one ``ImagePipeline``, and when a request may read
/// or write them.
struct PipelineCaches: Sendable {
    /// Decoded images (``ImagePipeline/Configuration/memoryCache``).
    private let memory: (any ImageCaching)?
    /// Original bytes (``ImagePipeline/Configuration/dataCache``).
    private let disk: (any DataCaching)?
    /// HTTP's caching rules and their clock (``ImagePipeline/Configuration/httpCache``).
    let http: HTTPCachePolicy

    init(memory: (any ImageCaching)?, disk: (any DataCaching)?, http: HTTPCachePolicy = HTTPCachePolicy()) {
        self.memory = memory
        self.disk = disk
        self.http = http
    }

    // MARK: Freshness

    /// What `image` (from the memory cache) allows now: always fresh when it did not come over
    /// HTTP (a file, a `.data` closure).
    func validity(of image: LoadedImage) -> HTTPCacheValidity {
        image.httpMetadata?.validity(at: http.now(), policy: http) ?? .fresh
    }

    /// What a stored entry allows now.
    func validity(of entry: DataCacheEntry) -> HTTPCacheValidity {
        entry.metadata?.validity(at: http.now(), policy: http) ?? HTTPCacheMetadata.validityWithoutMetadata(policy: http)
    }

    // MARK: Memory

    /// The memory cache's image for `keys`, as `request`'s caller gets it; `nil` when the
    /// request's policy ignores caches.
    func image(for request: ImageRequest, keys: ImageRequestKeys) -> LoadedImage? {
        guard request.cachePolicy != .reloadIgnoringLocalCacheData, var image = memory?.image(for: keys.image) else { return nil }
        image.scale = request.scale  // in place: the image is copied once, out of the cache
        return image
    }

    /// Stores an image stage's result for `request`, with the original bytes when the request
    /// keeps them.
    func storeResult(_ result: StageImage, of request: ImageRequest, keys: ImageRequestKeys) {
        guard let memory else { return }
        var image = result.image
        if request.options.keepsData { image.data = result.originalData }
        memory.store(image, for: keys.image)
    }

    /// Whether the memory cache holds an image for `key`, whatever a request's policy.
    func containsImage(for key: ImageCacheKey) -> Bool { memory?.image(for: key) != nil }

    /// Stores `image` for `key` as it is.
    func storeImage(_ image: LoadedImage, for key: ImageCacheKey) { memory?.store(image, for: key) }

    /// The best image of `request`'s source in the memory cache at any decode size
    /// (``ImageCaching/image(sameSourceAs:)``), at the request's scale.
    func imageOfSameSource(for request: ImageRequest, keys: ImageRequestKeys) -> LoadedImage? {
        guard request.cachePolicy != .reloadIgnoringLocalCacheData,
            var image = memory?.image(sameSourceAs: keys.image)?.image
        else { return nil }
        image.scale = request.scale
        return image
    }

    /// Removes the image for `key`.
    func removeImage(for key: ImageCacheKey) { memory?.remove(for: key) }

    /// Removes every image decoded from `data`'s bytes: every size, every processor.
    func removeImages(decodedFrom data: DataKey) { memory?.removeImages { $0.data == data } }

    /// Empties the memory cache.
    func removeAllImages() { memory?.removeAll() }

    // MARK: Disk

    /// Whether a fetch for `keys` reads the disk cache before loading: there is one, and the
    /// request may read it (``ImageRequestKeys/readsDisk``, part of ``FetchKey``).
    func readsData(for keys: ImageRequestKeys) -> Bool { disk != nil && keys.readsDisk }

    /// The one read of the disk cache for a load: `request`'s original bytes with their
    /// metadata, or `nil` on a miss or when the request may not read the disk. Blocking I/O:
    /// call it in a work-queue job.
    func entry(for keys: ImageRequestKeys) -> DataCacheEntry? {
        guard readsData(for: keys) else { return nil }
        return disk?.entry(for: keys.data.string)
    }

    /// The disk cache's entry for `key`, whatever a request's policy (blocking I/O: call it in
    /// a work-queue job).
    func entry(forKey key: String) -> DataCacheEntry? { disk?.entry(for: key) }

    /// Stores bytes a fetch has loaded, with their metadata, for sources that go through the
    /// data loader (files and `.data` closures are their own store): under the rendition's key,
    /// or the original's when the image service failed. A response that said `no-store` is
    /// never written, and takes an older entry of the key with it.
    func storeFetched(_ fetched: FetchedData, of request: ImageRequest, keys: ImageRequestKeys) {
        guard request.source.usesDataLoader, fetched.origin != .diskCache, let disk else { return }
        let key = fetched.serviceFallback == nil ? keys.data.string : keys.data.original.string
        if fetched.httpMetadata?.cacheControl.noStore == true {
            disk.remove(for: key)
        } else {
            disk.store(DataCacheEntry(data: fetched.data, metadata: fetched.httpMetadata), for: key)
        }
    }

    /// Removes loaded or cached bytes that did not decode (cut short, damaged, not an image at
    /// all), so that a later load fetches them again instead of failing on the same bytes.
    /// Limits and cancellation say nothing about the data and leave it.
    func forgetData(of request: ImageRequest, keys: ImageRequestKeys, after error: ImageError) {
        guard request.source.usesDataLoader else { return }
        switch error {
        case .emptyData, .unsupportedFormat, .truncated, .decodingFailed, .invalidDimensions:
            disk?.remove(for: keys.data.string)
        default:
            break
        }
    }

    /// Whether there is a disk cache at all.
    var hasDisk: Bool { disk != nil }

    /// The disk cache's bytes for `key`, whatever a request's policy (blocking I/O).
    func data(forKey key: String) -> Data? { disk?.data(for: key) }

    /// Stores `data` for `key` as a response that said nothing about caching, received now
    /// (fresh for ``HTTPCachePolicy/defaultFreshness``).
    func storeData(_ data: Data, forKey key: String) {
        let now = http.now()
        disk?.store(DataCacheEntry(data: data, metadata: HTTPCacheMetadata(headers: [:], requestTime: now, responseTime: now)), for: key)
    }

    /// Removes the bytes for `key`.
    func removeData(forKey key: String) { disk?.remove(for: key) }

    /// Empties the disk cache.
    func removeAllData() { disk?.removeAll() }
}
