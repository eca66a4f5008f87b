import Foundation

/// What the fetch stage yields: a source's original bytes and what is known about them, carried
/// together to the decode and to ``ImagePipeline/fetch(_:)``'s caller.
public struct FetchedData: Sendable {
    /// Where the bytes came from.
    public enum Origin: Sendable, Hashable {
        /// The source's loader (network, a file, a `.data` closure): new bytes.
        case loaded
        /// The disk cache, fresh (or used as the request's policy allows), without asking the
        /// origin.
        case diskCache
        /// The disk cache, after the origin confirmed them with `304 Not Modified`.
        case revalidated
        /// The disk cache, stale, because the origin could not answer (offline, an error status
        /// within `stale-if-error`); ``FetchedData/staleBecause`` says why.
        case staleAfterError
    }

    /// The encoded bytes.
    public var data: Data
    /// Where they came from.
    public var origin: Origin
    /// What HTTP said about them (validators, freshness), for data that came over HTTP.
    public var httpMetadata: HTTPCacheMetadata?
    /// The image service's rendition these bytes are, when the pipeline asked one for it
    /// (``ImagePipeline/Configuration/imageService``).
    public var rendition: ImageRendition?
    /// Why the image service could not render them, when the original was loaded instead.
    public var serviceFallback: ImageError?
    /// The error that made the pipeline use stale bytes (``Origin/staleAfterError``).
    public var staleBecause: ImageError?
    /// Whether the caller of ``ImagePipeline/fetch(_:)`` joined a fetch of the same data
    /// already in flight (one load served several callers) rather than starting it: the
    /// ``origin`` is then that fetch's.
    public var joinedFetchInFlight = false

    /// Makes a fetch result.
    public init(
        data: Data, origin: Origin, httpMetadata: HTTPCacheMetadata? = nil, rendition: ImageRendition? = nil,
        serviceFallback: ImageError? = nil, staleBecause: ImageError? = nil
    ) {
        self.data = data
        self.origin = origin
        self.httpMetadata = httpMetadata
        self.rendition = rendition
        self.serviceFallback = serviceFallback
        self.staleBecause = staleBecause
    }
}
