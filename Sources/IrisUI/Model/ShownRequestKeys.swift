import Iris

/// The pipeline's keys of the request a model shows, derived once per request: whether another
/// request shows the same image (its identity) and what the image is made of (its memory-cache
/// key, whose source tells a larger decode of the same photo from another photo).
struct ShownRequestKeys: Equatable, Sendable {
    /// What makes two requests show the same image (``ImagePipeline/identity(of:)``).
    let identity: ImageRequestIdentity
    /// The memory cache's key of the image (``ImagePipeline/imageKey(for:)``).
    let image: ImageCacheKey

    /// The keys of `request` in `pipeline`.
    init(_ request: ImageRequest, pipeline: ImagePipeline) {
        identity = pipeline.identity(of: request)
        image = pipeline.imageKey(for: request)
    }
}
