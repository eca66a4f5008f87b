extension ImageProcessors {
    /// Composites the image over an opaque colour, leaving no transparency.
    public struct Flatten: ImageProcessing, Hashable {
        /// The colour shown through transparent pixels (its alpha is ignored).
        public var background: RGBA

        /// Makes a flattening processor.
        public init(background: RGBA) { self.background = background }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.flatten(\(background))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard image.bitmap.format.hasAlpha else { return image }
            return image.replacingBitmap(image.bitmap.flattened(over: background))
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Flatten {
    /// Composites the image over `background`; see ``ImageProcessors/Flatten``.
    public static func flatten(over background: RGBA) -> Self { ImageProcessors.Flatten(background: background) }
}
