import Iris

/// The watermark image of the configuration, decoded once: premultiplied RGBA, with an
/// identifier for cache keys and a base opacity that every `watermark` option multiplies.
package struct Watermark: Sendable {
    /// The image, premultiplied RGBA.
    package let bitmap: Bitmap
    /// Names this image in cache keys (a digest of its file, say).
    package let identifier: String
    /// The configured opacity, 0…1 (imgproxy's `IMGPROXY_WATERMARK_OPACITY`).
    package let opacity: Double

    /// A watermark of `bitmap`.
    package init(bitmap: Bitmap, identifier: String, opacity: Double = 1) {
        self.bitmap = bitmap.format == .rgba8 ? bitmap : bitmap.converted(to: .rgba8)
        self.identifier = identifier
        self.opacity = min(1, max(0, opacity))
    }
}

/// Lays the configured watermark over the result, last, as imgproxy does: fitted into `scale`
/// of the result's size when a scale is given (enlarged if need be), placed by its position
/// and offsets (pixels times the dpr, or fractions below 1; it may stick out of the image), or
/// tiled over the whole image with the offsets as the space between tiles; at the option's
/// opacity times the configured one.
package struct WatermarkProcessor: ImageProcessing {
    /// The image.
    package var watermark: Watermark
    /// Where and how strongly.
    package var option: WatermarkOption
    /// Scales pixel offsets (the request's dpr).
    package var dpr: Double

    /// Makes a watermark step.
    package init(watermark: Watermark, option: WatermarkOption, dpr: Double) {
        self.watermark = watermark
        self.option = option
        self.dpr = dpr
    }

    /// What the memory cache key records.
    package var identifier: String {
        "iris-server.watermark(\(watermark.identifier),\(watermark.opacity),\(option.opacity),\(option.position),"
            + "\(option.xOffset),\(option.yOffset),\(option.scale),dpr \(dpr))"
    }

    /// Returns the image with the watermark laid over it (an animation: every frame).
    package func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        let size = image.bitmap.size
        let opacity = option.opacity * watermark.opacity
        guard opacity > 0, size.width > 0, size.height > 0 else { return image }
        var mark = watermark.bitmap
        if option.scale > 0 {
            let box = PixelSize(
                width: max(1, Self.even(Double(size.width) * option.scale)),
                height: max(1, Self.even(Double(size.height) * option.scale)))
            let factor = min(Double(box.width) / Double(mark.width), Double(box.height) / Double(mark.height))
            let fitted = PixelSize(
                width: max(1, Int((Double(mark.width) * factor).rounded())),
                height: max(1, Int((Double(mark.height) * factor).rounded())))
            if fitted != mark.size { mark = Resampler().resize(mark, to: fitted) }
        }
        var out = image
        var bitmap = image.bitmap
        if bitmap.format != .rgba8 && bitmap.format != .rgbx8 { bitmap = bitmap.converted(to: bitmap.format.hasAlpha ? .rgba8 : .rgbx8) }
        switch option.position {
        case .replicate:
            // The offsets are the space between tiles, split around each tile.
            let spaceX = max(0, offset(option.xOffset, of: size.width)), spaceY = max(0, offset(option.yOffset, of: size.height))
            let stepX = mark.width + spaceX, stepY = mark.height + spaceY
            var y = spaceY / 2
            while y < size.height {
                var x = spaceX / 2
                while x < size.width {
                    Self.composite(mark, onto: &bitmap, x: x, y: y, opacity: opacity)
                    x += stepX
                }
                y += stepY
            }
        case .compass(let point):
            let rect = Geometry.place(
                mark.size, in: size, gravity: .compass(point, xOffset: option.xOffset, yOffset: option.yOffset),
                dpr: dpr, allowsOverflow: true)
            Self.composite(mark, onto: &bitmap, x: rect.x, y: rect.y, opacity: opacity)
        }
        out.bitmap = bitmap
        return out
    }

    /// An offset in pixels: 1 or more times the dpr, below 1 a fraction of `whole`.
    private func offset(_ value: Double, of whole: Int) -> Int {
        abs(value) >= 1 ? Int((value * dpr).rounded(.toNearestOrEven)) : Self.even(Double(whole) * value)
    }

    private static func even(_ value: Double) -> Int { Int(value.rounded(.toNearestOrEven)) }

    /// `mark` (premultiplied RGBA) over `bitmap` (RGBA premultiplied or RGBX) at (`x`, `y`),
    /// clipped to it, at `opacity`.
    static func composite(_ mark: Bitmap, onto bitmap: inout Bitmap, x: Int, y: Int, opacity: Double) {
        let left = max(0, x), top = max(0, y)
        let right = min(bitmap.width, x + mark.width), bottom = min(bitmap.height, y + mark.height)
        guard left < right, top < bottom else { return }
        let keepsAlpha = bitmap.format.hasAlpha
        let scale = Int((opacity * 256).rounded())
        let markStride = mark.bytesPerRow, stride = bitmap.bytesPerRow
        mark.withUnsafeBytes { raw in
            let m = raw.bindMemory(to: UInt8.self)
            bitmap.withUnsafeMutableBytes { out in
                let p = out.bindMemory(to: UInt8.self)
                for row in top..<bottom {
                    var source = (row - y) * markStride + (left - x) * 4
                    var target = row * stride + left * 4
                    for _ in left..<right {
                        let alpha = (Int(m[source + 3]) * scale) >> 8
                        if alpha > 0 {
                            let keep = 255 - alpha
                            for channel in 0..<3 {
                                let value = (Int(m[source + channel]) * scale) >> 8
                                p[target + channel] = UInt8(min(255, value + (Int(p[target + channel]) * keep + 127) / 255))
                            }
                            if keepsAlpha { p[target + 3] = UInt8(min(255, alpha + (Int(p[target + 3]) * keep + 127) / 255)) }
                        }
                        source += 4
                        target += 4
                    }
                }
            }
        }
    }
}
