extension ImageProcessors {
    /// Places the image on a canvas of another size, filled with a colour: padding, or extending
    /// a small image to a box. Parts of the image outside the canvas are cut off.
    public struct Canvas: ImageProcessing, Hashable {
        /// The canvas, in pixels.
        public var size: PixelSize
        /// Where the image's top-left corner goes on the canvas (may be negative).
        public var x: Int
        /// Where the image's top-left corner goes on the canvas (may be negative).
        public var y: Int
        /// What fills the canvas around the image; alpha 0 leaves it transparent.
        public var background: RGBA

        /// Makes a canvas processor.
        public init(size: PixelSize, x: Int, y: Int, background: RGBA) {
            self.size = size
            self.x = x
            self.y = y
            self.background = background
        }

        /// The image with `top`, `right`, `bottom` and `left` pixels added around it.
        public static func padding(
            top: Int, right: Int, bottom: Int, left: Int, around size: PixelSize,
            background: RGBA
        ) -> Canvas {
            Canvas(
                size: PixelSize(width: size.width + left + right, height: size.height + top + bottom),
                x: left, y: top, background: background)
        }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.canvas(\(size),\(x),\(y),\(background))" }

        /// Returns the processed image (an animation: every frame).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard size.width > 0, size.height > 0, size.pixelCount <= 1 << 28 else {
                throw .processingFailed(processor: identifier, reason: "canvas size \(size) is empty or too large")
            }
            if size == image.bitmap.size && x == 0 && y == 0 { return image }
            var source = image.bitmap.isPremultiplied ? image.bitmap : image.bitmap.premultiplied()
            let needsAlpha = background.a < 255 || source.format.hasAlpha
            let format: PixelFormat =
                switch source.format {
                case .gray8: .preferred(hasAlpha: needsAlpha)
                default: needsAlpha ? source.format.withAlpha : source.format
                }
            if source.format != format { source = source.converted(to: format) }
            var out = Bitmap(width: size.width, height: size.height, format: format)
            let fill = Self.premultipliedBytes(background, format: format)
            let bpp = format.bytesPerPixel
            let outStride = out.bytesPerRow, sourceStride = source.bytesPerRow
            let left = max(0, x), right = min(size.width, x + source.width)
            let top = max(0, y), bottom = min(size.height, y + source.height)
            source.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    for row in 0..<size.height {
                        var offset = row * outStride
                        for _ in 0..<size.width {
                            dst[offset] = fill.0
                            dst[offset + 1] = fill.1
                            dst[offset + 2] = fill.2
                            dst[offset + 3] = fill.3
                            offset += bpp
                        }
                        guard row >= top, row < bottom, left < right else { continue }
                        let from = (row - y) * sourceStride + (left - x) * bpp
                        (dst.baseAddress! + row * outStride + left * bpp)
                            .copyMemory(from: src.baseAddress! + from, byteCount: (right - left) * bpp)
                    }
                }
            }
            return image.replacingBitmap(out)
        }

        /// `color` as one pixel of `format` (four bytes), premultiplied.
        static func premultipliedBytes(_ color: RGBA, format: PixelFormat) -> (UInt8, UInt8, UInt8, UInt8) {
            let alpha = format.hasAlpha ? UInt32(color.a) : 255
            func scaled(_ channel: UInt8) -> UInt8 { UInt8(PixelConversion.mulDiv255(UInt32(channel), alpha)) }
            let (r, g, b) = (scaled(color.r), scaled(color.g), scaled(color.b))
            return format.isBlueFirst ? (b, g, r, UInt8(alpha)) : (r, g, b, UInt8(alpha))
        }
    }
}
