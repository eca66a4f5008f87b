import Foundation

/// What the image stage hands on: the image, and the original bytes it was decoded
/// from, passed explicitly so that each request decides whether it keeps them
/// (``ImageRequest/Options/keepsData``) without splitting the shared work.
struct StageImage: Sendable {
    /// The image, without ``LoadedImage/data``.
    var image: LoadedImage
    /// The original encoded bytes.
    var originalData: Data?
    /// Whether the bytes were stored data used stale, without asking the origin (shown while it
    /// is revalidated): the image stage then starts that revalidation.
    var isUnrevalidatedStaleData = false

    /// The image as handed to `request`'s caller: the original bytes attached when the request
    /// keeps them, and the request's scale.
    func loadedImage(for request: ImageRequest) -> LoadedImage {
        var image = image
        image.data = request.options.keepsData ? originalData : nil
        return image.scaled(for: request)
    }
}

extension LoadedImage {
    /// The image as handed to `request`'s caller: with the request's scale (images are shared
    /// between requests that differ only in scale).
    consuming func scaled(for request: ImageRequest) -> LoadedImage {
        scale = request.scale
        return self
    }
}
