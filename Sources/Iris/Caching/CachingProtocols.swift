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
    /// Removes every image whose key `shouldRemove` picks: the pipeline drops every image
    /// decoded from bytes a revalidation replaced (every size, every processor). By default
    /// ``removeAll()``: a cache that cannot walk its keys forgets everything, never too little.
    func removeImages(where shouldRemove: (ImageCacheKey) -> Bool)
    /// The best image stored for `key`'s source at any decode size (the same data, orientation
    /// and processors), with the key it is stored under: what a view can show at once before it
    /// knows its size. `nil` by default.
    func image(sameSourceAs key: ImageCacheKey) -> (key: ImageCacheKey, image: LoadedImage)?
}

extension ImageCaching {
    /// Removes everything: a cache that does not walk its keys cannot pick.
    public func removeImages(where shouldRemove: (ImageCacheKey) -> Bool) { removeAll() }

    /// No lookup by source: a cache that does not index its keys finds nothing.
    public func image(sameSourceAs key: ImageCacheKey) -> (key: ImageCacheKey, image: LoadedImage)? { nil }
}

/// One original in a ``DataCaching`` store: the encoded bytes and what HTTP said about them.
public struct DataCacheEntry: Sendable {
    /// The encoded bytes.
    public var data: Data
    /// What the response said about caching them (validators, freshness); `nil` when unknown:
    /// bytes stored by hand, or by a version of the disk cache that kept none.
    public var metadata: HTTPCacheMetadata?

    /// Makes an entry.
    public init(data: Data, metadata: HTTPCacheMetadata? = nil) {
        self.data = data
        self.metadata = metadata
    }
}

/// A cache of original encoded data with the HTTP metadata of each, such as ``DataCache`` on
/// disk: what a private HTTP cache keeps (RFC 9111).
public protocol DataCaching: Sendable {
    /// The entry for `key`, if present and intact (the bytes and their metadata together, or
    /// neither). Called off the main thread.
    func entry(for key: String) -> DataCacheEntry?
    /// Stores `entry` for `key`, replacing an older one whole. Must not block the caller on I/O.
    func store(_ entry: DataCacheEntry, for key: String)
    /// Removes the entry for `key`.
    func remove(for key: String)
    /// Removes everything.
    func removeAll()
}

extension DataCaching {
    /// The bytes stored for `key`, if any.
    public func data(for key: String) -> Data? { entry(for: key)?.data }

    /// Stores `data` for `key` with no HTTP metadata (stale under HTTP's rules: see
    /// ``HTTPCacheMetadata/validityWithoutMetadata(policy:)``).
    public func store(_ data: Data, for key: String) { store(DataCacheEntry(data: data), for: key) }
}
