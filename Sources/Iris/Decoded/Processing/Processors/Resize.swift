extension ImageProcessors {
    /// Resizes to fit or fill a size in pixels with the ``Resampler``; optionally crops a fill
    /// to exactly that size (centred).
    public struct Resize: ImageProcessing, Hashable {
        /// The box, in pixels.
        public var size: PixelSize
        /// Fit inside or cover the box.
        public var contentMode: ContentMode
        /// Whether images smaller than the box are enlarged (as ``DecodeTarget/allowsUpscaling``).
        public var allowsUpscaling: Bool
        /// With `.fill`, crop the overflow so the result is exactly `size`.
        public var crop: Bool
        /// The resampling kernel.
        public var kernel: ResamplingKernel

        /// Makes a resize processor.
        public init(
            size: PixelSize, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false, crop: Bool = false,
            kernel: ResamplingKernel = .lanczos3
        ) {
            self.size = size
            self.contentMode = contentMode
            self.allowsUpscaling = allowsUpscaling
            self.crop = crop
            self.kernel = kernel
        }

        /// What the memory cache key records of this processor.
        public var identifier: String {
            "iris.resize(\(size.width)x\(size.height),\(contentMode)\(allowsUpscaling ? ",upscale" : "")\(crop ? ",crop" : ""),\(kernel))"
        }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard size.width > 0, size.height > 0 else {
                throw .processingFailed(processor: identifier, reason: "target size \(size) is empty")
            }
            let target = DecodeTarget(size: size, contentMode: contentMode, allowsUpscaling: allowsUpscaling)
            let output = target.outputSize(for: image.bitmap.size)
            var bitmap = output == image.bitmap.size ? image.bitmap : Resampler(kernel: kernel).resize(image.bitmap, to: output)
            if crop && contentMode == .fill && (bitmap.width > size.width || bitmap.height > size.height) {
                let width = min(size.width, bitmap.width), height = min(size.height, bitmap.height)
                bitmap = bitmap.cropped(
                    to: PixelRect(
                        x: (bitmap.width - width) / 2, y: (bitmap.height - height) / 2,
                        width: width, height: height))
            }
            return image.replacingBitmap(bitmap)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// Resizes to fit or fill `size` pixels; see ``ImageProcessors/Resize``.
    public static func resize(size: PixelSize, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false, crop: Bool = false) -> Self {
        ImageProcessors.Resize(size: size, contentMode: contentMode, allowsUpscaling: allowsUpscaling, crop: crop)
    }
    /// Resizes to fit or fill `width`×`height` pixels; see ``ImageProcessors/Resize``.
    public static func resize(
        width: Int, height: Int, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false, crop: Bool = false
    ) -> Self {
        ImageProcessors.Resize(
            size: PixelSize(width: width, height: height), contentMode: contentMode, allowsUpscaling: allowsUpscaling, crop: crop)
    }
}
