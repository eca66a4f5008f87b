import Foundation

extension ImageProcessors {
    /// A Gaussian blur (separable, in premultiplied alpha, edges clamped).
    public struct GaussianBlur: ImageProcessing, Hashable {
        /// Standard deviation in pixels; the kernel reaches 3 × radius.
        public var radius: Double

        /// Makes a blur processor.
        public init(radius: Double) { self.radius = radius }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.gaussianBlur(\(radius))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard radius >= 0, radius.isFinite, radius <= 1000 else {
                throw .processingFailed(processor: identifier, reason: "radius must be between 0 and 1000")
            }
            guard radius > 0 else { return image }
            return image.replacingBitmap(Self.blur(image.bitmap, sigma: radius))
        }

        /// Integer weights summing to 1 << 16 for a kernel of half-width ⌈3σ⌉.
        static func weights(sigma: Double) -> [Int32] {
            let half = max(1, Int((3 * sigma).rounded(.up)))
            let raw = (-half...half).map { i in exp(-Double(i * i) / (2 * sigma * sigma)) }
            let total = raw.reduce(0, +)
            var weights = raw.map { Int32(($0 / total * 65536).rounded()) }
            weights[half] += 65536 - weights.reduce(0, +)
            return weights
        }

        static func blur(_ bitmap: Bitmap, sigma: Double) -> Bitmap {
            let weights = weights(sigma: sigma)
            let horizontal = pass(bitmap, weights: weights, horizontal: true)
            return pass(horizontal, weights: weights, horizontal: false)
        }

        /// One 1-D convolution along rows or columns.
        private static func pass(_ bitmap: Bitmap, weights: [Int32], horizontal: Bool) -> Bitmap {
            var out = Bitmap(width: bitmap.width, height: bitmap.height, format: bitmap.format)
            let bpp = bitmap.format.bytesPerPixel
            let width = bitmap.width, height = bitmap.height
            let stride = bitmap.bytesPerRow, outStride = out.bytesPerRow
            let half = weights.count / 2
            bitmap.withUnsafeBytes { srcRaw in
                out.withUnsafeMutableBytes { dstRaw in
                    let src = srcRaw.bindMemory(to: UInt8.self)
                    let dst = dstRaw.bindMemory(to: UInt8.self)
                    weights.withUnsafeBufferPointer { w in
                        for y in 0..<height {
                            for x in 0..<width {
                                for c in 0..<bpp {
                                    var sum: Int32 = 0
                                    for k in 0..<w.count {
                                        let sx = horizontal ? min(max(x + k - half, 0), width - 1) : x
                                        let sy = horizontal ? y : min(max(y + k - half, 0), height - 1)
                                        sum &+= Int32(src[sy * stride + sx * bpp + c]) &* w[k]
                                    }
                                    dst[y * outStride + x * bpp + c] = UInt8(clamping: (sum + 32768) >> 16)
                                }
                            }
                        }
                    }
                }
            }
            return out
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.GaussianBlur {
    /// A Gaussian blur of standard deviation `radius` pixels; see ``ImageProcessors/GaussianBlur``.
    public static func gaussianBlur(radius: Double) -> Self { ImageProcessors.GaussianBlur(radius: radius) }
}
