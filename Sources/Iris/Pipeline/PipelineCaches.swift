import Foundation

// Every read, write and removal of a pipeline's two caches, and the rules of which request may
// use them, in one file. Nothing else touches the caches: the stages, the pipeline's entry
// points, the prefetcher and `ImagePipeline.Cache` ask this type.
//
//   memory (decoded images, by ImageCacheKey)   read:  ImagePipeline / ImageTask / prefetch, before any stage
//                                               write: ProcessStage, with its result
//   disk (original bytes, by DataKey)           read:  once per load, in a job of the stage that needs
//                                                      the bytes first (DecodeStage for an image,
//                                                      FetchDataStage for data(for:) and prefetch to disk)
//                                               write: FetchDataStage, after a load
//                                               remove: DecodeStage, bytes that do not decode

/// The memory cache and the disk cache of one ``ImagePipeline``, and when a request may read
/// or write them.
struct PipelineCaches: Sendable {
    /// Decoded images (``ImagePipeline/Configuration/memoryCache``).
    private let memory: (any ImageCaching)?
    /// Original bytes (``ImagePipeline/Configuration/dataCache``).
    private let disk: (any DataCaching)?

    init(memory: (any ImageCaching)?, disk: (any DataCaching)?) {
        self.memory = memory
        self.disk = disk
    }

    // MARK: Memory

    /// The memory cache's image for `keys`, as `request`'s caller gets it; `nil` when the
    /// request's policy ignores caches.
    func image(for request: ImageRequest, keys: RequestKeys) -> LoadedImage? {
        guard request.cachePolicy != .reloadIgnoringCache, var image = memory?.image(for: keys.image) else { return nil }
        image.scale = request.scale  // in place: the image is copied once, out of the cache
        return image
    }

    /// Stores a process stage's result for `request`, with the original bytes when the request
    /// keeps them.
    func storeResult(_ result: StageImage, of request: ImageRequest, keys: RequestKeys) {
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
    func imageOfSameSource(for request: ImageRequest, keys: RequestKeys) -> LoadedImage? {
        guard request.cachePolicy != .reloadIgnoringCache,
            var image = memory?.image(sameSourceAs: keys.image)?.image
        else { return nil }
        image.scale = request.scale
        return image
    }

    /// Removes the image for `key`.
    func removeImage(for key: ImageCacheKey) { memory?.remove(for: key) }

    /// Empties the memory cache.
    func removeAllImages() { memory?.removeAll() }

    // MARK: Disk

    /// Whether a fetch for `keys` reads the disk cache before loading: there is one, and the
    /// request may read it (``RequestKeys/readsDisk``, part of ``FetchKey``).
    func readsData(for keys: RequestKeys) -> Bool { disk != nil && keys.readsDisk }

    /// The one read of the disk cache for a load: `request`'s original bytes, or `nil` on a miss
    /// or when the request may not read the disk. Blocking I/O: call it in a work-queue job.
    func data(for keys: RequestKeys) -> Data? {
        guard readsData(for: keys) else { return nil }
        return disk?.data(for: keys.data.string)
    }

    /// Stores bytes a fetch has loaded, for sources that go through the data loader (files and
    /// `.data` closures are their own store).
    func storeLoadedData(_ data: Data, of request: ImageRequest, keys: RequestKeys) {
        guard request.source.usesDataLoader else { return }
        disk?.store(data, for: keys.data.string)
    }

    /// Removes loaded or cached bytes that did not decode (cut short, damaged, not an image at
    /// all), so that a later load fetches them again instead of failing on the same bytes.
    /// Limits and cancellation say nothing about the data and leave it.
    func forgetData(of request: ImageRequest, keys: RequestKeys, after error: ImageError) {
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

    /// Stores `data` for `key` as it is.
    func storeData(_ data: Data, forKey key: String) { disk?.store(data, for: key) }

    /// Removes the bytes for `key`.
    func removeData(forKey key: String) { disk?.remove(for: key) }

    /// Empties the disk cache.
    func removeAllData() { disk?.removeAll() }
}
