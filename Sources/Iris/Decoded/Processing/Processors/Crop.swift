extension ImageProcessors {
    /// Keeps the pixels inside a rectangle (clipped to the image).
    public struct Crop: ImageProcessing, Hashable {
        /// The rectangle to keep, in pixels of the (oriented) image.
        public var rect: PixelRect

        /// Makes a crop processor.
        public init(rect: PixelRect) { self.rect = rect }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.crop(\(rect))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            let inside = rect.clamped(to: image.bitmap.size)
            guard inside.width > 0, inside.height > 0 else {
                throw .processingFailed(
                    processor: identifier,
                    reason: "the rectangle lies outside the \(image.bitmap.size) image")
            }
            return image.replacingBitmap(image.bitmap.cropped(to: inside))
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Keeps the pixels inside `rect`; see ``ImageProcessors/Crop``.
    public static func crop(_ rect: PixelRect) -> Self { ImageProcessors.Crop(rect: rect) }
}
