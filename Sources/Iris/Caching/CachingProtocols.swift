import Foundation

/// A cache of decoded images, such as ``MemoryCache``. Reads are synchronous so a hit can be
/// shown in the same frame (no placeholder flash).
///
/// A class: a cache is shared state, and the pipeline reads it on every request, where holding
/// it by one reference keeps the hit path cheap.
public protocol ImageCaching: AnyObject, Sendable {
    /// The cached image for `key`, if any.
    func image(for key: ImageCacheKey) -> LoadedImage?
    /// Stores `image` for `key`.
    func store(_ image: LoadedImage, for key: ImageCacheKey)
    /// Removes the image for `key`.
    func remove(for key: ImageCacheKey)
    /// Removes everything.
    func removeAll()
    /// The best image stored for `key`'s source at any decode size (the same data, orientation
    /// and processors), with the key it is stored under: what a view can show at once before it
    /// knows its size. `nil` by default.
    func image(sameSourceAs key: ImageCacheKey) -> (key: ImageCacheKey, image: LoadedImage)?
}

extension ImageCaching {
    /// No lookup by source: a cache that does not index its keys finds nothing.
    public func image(sameSourceAs key: ImageCacheKey) -> (key: ImageCacheKey, image: LoadedImage)? { nil }
}

/// A cache of original encoded data, such as ``DataCache`` on disk.
public protocol DataCaching: Sendable {
    /// The data for `key`, if present and intact. Called off the main thread.
    func data(for key: String) -> Data?
    /// Stores `data` for `key`. Must not block the caller on I/O.
    func store(_ data: Data, for key: String)
    /// Removes the data for `key`.
    func remove(for key: String)
    /// Removes everything.
    func removeAll()
}
