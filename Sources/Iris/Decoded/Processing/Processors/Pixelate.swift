extension ImageProcessors {
    /// Replaces each square block of pixels with its average (blocks at the right and bottom
    /// edges may be narrower), in premultiplied alpha.
    public struct Pixelate: ImageProcessing, Hashable {
        /// The side of a block, in pixels.
        public var blockSize: Int

        /// Makes a pixelating processor.
        public init(blockSize: Int) { self.blockSize = blockSize }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.pixelate(\(blockSize))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard blockSize > 0 else { throw .processingFailed(processor: identifier, reason: "the block size must be positive") }
            guard blockSize > 1 else { return image }
            var out = image.bitmap.isPremultiplied ? image.bitmap : image.bitmap.premultiplied()
            let bpp = out.format.bytesPerPixel, rowBytes = out.bytesPerRow
            let (width, height, block) = (out.width, out.height, blockSize)
            out.withUnsafeMutableBytes { pixels in
                for top in stride(from: 0, to: height, by: block) {
                    for left in stride(from: 0, to: width, by: block) {
                        let bottom = min(height, top + block), right = min(width, left + block)
                        var sums = [Int](repeating: 0, count: bpp)
                        for y in top..<bottom {
                            for x in left..<right {
                                for channel in 0..<bpp { sums[channel] += Int(pixels[y * rowBytes + x * bpp + channel]) }
                            }
                        }
                        let count = (bottom - top) * (right - left)
                        let averages = sums.map { UInt8(($0 + count / 2) / count) }
                        for y in top..<bottom {
                            for x in left..<right {
                                for channel in 0..<bpp { pixels[y * rowBytes + x * bpp + channel] = averages[channel] }
                            }
                        }
                    }
                }
            }
            return image.replacingBitmap(out)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Pixelate {
    /// Averages `blockSize`-pixel squares; see ``ImageProcessors/Pixelate``.
    public static func pixelate(blockSize: Int) -> Self { ImageProcessors.Pixelate(blockSize: blockSize) }
}
