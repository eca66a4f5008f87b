extension ImageProcessors {
    /// Crops to the centred square and masks it with an anti-aliased circle. The output has
    /// alpha, in the input's colour order (``PixelFormat/withAlpha``).
    public struct Circle: ImageProcessing, Hashable {
        /// Makes a circle processor.
        public init() {}

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.circle" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            let side = min(image.bitmap.width, image.bitmap.height)
            let square = image.bitmap.cropped(
                to: PixelRect(
                    x: (image.bitmap.width - side) / 2,
                    y: (image.bitmap.height - side) / 2, width: side, height: side))
            return image.replacingBitmap(RoundedCorners.round(square, radius: Double(side) / 2))
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Circle {
    /// A centred circle; see ``ImageProcessors/Circle``.
    public static var circle: Self { ImageProcessors.Circle() }
}
