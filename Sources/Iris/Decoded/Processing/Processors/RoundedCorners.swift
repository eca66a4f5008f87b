extension ImageProcessors {
    /// Makes the corners transparent along anti-aliased quarter circles. The output has alpha,
    /// in the input's colour order (``PixelFormat/withAlpha``).
    public struct RoundedCorners: ImageProcessing, Hashable {
        /// Corner radius in pixels.
        public var radius: Double

        /// Makes a rounded-corners processor.
        public init(radius: Double) { self.radius = radius }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.roundedCorners(\(radius))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard radius >= 0, radius.isFinite else {
                throw .processingFailed(processor: identifier, reason: "radius must be a finite number ≥ 0")
            }
            return image.replacingBitmap(Self.round(image.bitmap, radius: radius))
        }

        /// `bitmap` with its corners masked by circles of `radius` (clamped to half the shorter side).
        static func round(_ bitmap: Bitmap, radius: Double) -> Bitmap {
            var out = bitmap.converted(to: bitmap.format.withAlpha)
            let r = min(radius, Double(min(out.width, out.height)) / 2)
            guard r > 0 else { return out }
            let width = out.width, height = out.height, stride = out.bytesPerRow
            let span = Int(r.rounded(.up))
            out.withUnsafeMutableBytes { raw in
                let p = raw.bindMemory(to: UInt8.self)
                for y in 0..<height where y < span || y >= height - span {
                    // Distance of the pixel centre from the nearer corner circle's centre, per axis.
                    let cy = Double(y) + 0.5
                    let dy = cy < r ? r - cy : (cy > Double(height) - r ? cy - (Double(height) - r) : 0)
                    for x in 0..<width where x < span || x >= width - span {
                        let cx = Double(x) + 0.5
                        let dx = cx < r ? r - cx : (cx > Double(width) - r ? cx - (Double(width) - r) : 0)
                        guard dx > 0 && dy > 0 else { continue }
                        let coverage = max(0, min(1, r - (dx * dx + dy * dy).squareRoot() + 0.5))
                        if coverage >= 1 { continue }
                        let scale = UInt32((coverage * 256).rounded())
                        let offset = y * stride + x * 4
                        for c in 0..<4 { p[offset + c] = UInt8((UInt32(p[offset + c]) * scale + 128) >> 8) }
                    }
                }
            }
            return out
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.RoundedCorners {
    /// Anti-aliased rounded corners; see ``ImageProcessors/RoundedCorners``.
    public static func roundedCorners(radius: Double) -> Self { ImageProcessors.RoundedCorners(radius: radius) }
}
