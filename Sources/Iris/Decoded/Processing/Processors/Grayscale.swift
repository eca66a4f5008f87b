extension ImageProcessors {
    /// Converts to grey (Rec. 601 luma): opaque images become `gray8`; images with alpha keep
    /// their format (and alpha), with the three colour bytes set to the luma.
    public struct Grayscale: ImageProcessing, Hashable {
        /// Makes a grayscale processor.
        public init() {}

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.grayscale" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            let bitmap = image.bitmap
            guard bitmap.format.hasAlpha else { return image.replacingBitmap(bitmap.converted(to: .gray8)) }
            // Premultiplied luma is the luma of the premultiplied colour: alpha stays as it is,
            // and so does the layout (grey reads the same in either colour order).
            var out = bitmap
            let red = bitmap.format.redOffset, blue = bitmap.format.blueOffset
            out.withUnsafeMutableBytes { raw in
                let p = raw.bindMemory(to: UInt8.self)
                for y in 0..<bitmap.height {
                    var i = y * bitmap.bytesPerRow
                    for _ in 0..<bitmap.width {
                        let v = RGBA(r: p[i + red], g: p[i + 1], b: p[i + blue]).luma
                        p[i] = v
                        p[i + 1] = v
                        p[i + 2] = v
                        i += 4
                    }
                }
            }
            return image.replacingBitmap(out)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Grayscale {
    /// Grey; see ``ImageProcessors/Grayscale``.
    public static var grayscale: Self { ImageProcessors.Grayscale() }
}
