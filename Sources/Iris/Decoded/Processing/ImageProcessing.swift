/// A step applied to a decoded image after decoding (resize, crop, blur…).
///
/// The identifier is part of cache keys: two processors with the same identifier must give the
/// same result.
public protocol ImageProcessing: Sendable {
    /// Identifies what the processor does, parameters included: "iris.resize(300x200,fit)".
    var identifier: String { get }
    /// The processed image; on failure, usually ``ImageError/processingFailed(processor:reason:)``.
    func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage
}
