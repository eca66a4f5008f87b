extension ImageProcessors {
    /// Sharpens with an unsharp mask: each pixel moves away from its Gaussian-blurred
    /// neighbourhood (`pixel + amount × (pixel − blurred)`), in premultiplied alpha.
    public struct Sharpen: ImageProcessing, Hashable {
        /// The blur's standard deviation in pixels: how wide the edges that are sharpened are.
        public var sigma: Double
        /// How strongly: 1 doubles the difference from the blurred image.
        public var amount: Double

        /// Makes a sharpening processor.
        public init(sigma: Double, amount: Double = 1) {
            self.sigma = sigma
            self.amount = amount
        }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.sharpen(\(sigma),\(amount))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard sigma >= 0, sigma.isFinite, sigma <= 1000, amount.isFinite, amount >= 0 else {
                throw .processingFailed(processor: identifier, reason: "sigma must be between 0 and 1000, amount at least 0")
            }
            guard sigma > 0, amount > 0 else { return image }
            let source = image.bitmap.isPremultiplied ? image.bitmap : image.bitmap.premultiplied()
            let blurred = GaussianBlur.blur(source, sigma: sigma)
            var out = source
            let bpp = source.format.bytesPerPixel
            let hasAlpha = source.format.hasAlpha
            let stride = source.bytesPerRow, blurStride = blurred.bytesPerRow
            let gain = Int32((amount * 256).rounded())
            let (width, height) = (source.width, source.height)
            blurred.withUnsafeBytes { soft in
                out.withUnsafeMutableBytes { pixels in
                    for y in 0..<height {
                        for x in 0..<width {
                            let at = y * stride + x * bpp, softAt = y * blurStride + x * bpp
                            let ceiling = hasAlpha ? Int32(pixels[at + 3]) : 255
                            for channel in 0..<(bpp == 4 ? 3 : 1) {
                                let value = Int32(pixels[at + channel])
                                let sharpened = value + (gain * (value - Int32(soft[softAt + channel])) + 128) >> 8
                                pixels[at + channel] = UInt8(min(max(sharpened, 0), ceiling))
                            }
                        }
                    }
                }
            }
            return image.replacingBitmap(out)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Sharpen {
    /// An unsharp mask of standard deviation `sigma` pixels; see ``ImageProcessors/Sharpen``.
    public static func sharpen(sigma: Double, amount: Double = 1) -> Self { ImageProcessors.Sharpen(sigma: sigma, amount: amount) }
}
