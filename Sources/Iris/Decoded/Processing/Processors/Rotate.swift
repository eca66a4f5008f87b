extension ImageProcessors {
    /// Turns the image clockwise by a multiple of 90°.
    public struct Rotate: ImageProcessing, Hashable {
        /// Degrees clockwise: 0, 90, 180 or 270 (other multiples of 90 are reduced).
        public var degrees: Int

        /// Makes a rotation processor.
        public init(degrees: Int) { self.degrees = ((degrees % 360) + 360) % 360 }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.rotate(\(degrees))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            switch degrees {
            case 0: return image
            case 90: return image.replacingBitmap(image.bitmap.oriented(.right))
            case 180: return image.replacingBitmap(image.bitmap.oriented(.down))
            case 270: return image.replacingBitmap(image.bitmap.oriented(.left))
            default: throw .processingFailed(processor: identifier, reason: "the angle must be a multiple of 90")
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Rotate {
    /// Turns the image `degrees` clockwise (a multiple of 90); see ``ImageProcessors/Rotate``.
    public static func rotate(degrees: Int) -> Self { ImageProcessors.Rotate(degrees: degrees) }
}
