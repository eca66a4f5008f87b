import Iris

/// Cuts borders of one colour off the source (imgproxy's `trim`), before anything else: a
/// pixel belongs to the border when no channel is further than the threshold from the border
/// colour (the given one, else the top-left pixel's); transparent pixels count as magenta, as
/// in imgproxy, so a transparent border is cut too. With `equalHorizontal` the left and right
/// cuts are the lesser of the two, likewise `equalVertical`. An image that is all border is
/// left whole. The geometry that follows sees the trimmed image as the source.
package struct TrimProcessor: ImageProcessing, Hashable {
    /// The trim.
    package var trim: TrimOption
    /// Whether the bitmap is upright (`auto_rotate`): the source size follows the bitmap's.
    package var autoRotate: Bool

    /// Makes a trim step.
    package init(trim: TrimOption, autoRotate: Bool) {
        self.trim = trim
        self.autoRotate = autoRotate
    }

    /// What the memory cache key records.
    package var identifier: String {
        "iris-server.trim(\(trim.threshold),\(trim.color?.hex ?? "corner"),\(trim.equalHorizontal),\(trim.equalVertical))"
    }

    /// Returns the trimmed image.
    package func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        guard let rect = Self.content(of: image.bitmap, trim: trim) else { return image }
        var image = try ImageProcessors.Crop(rect: rect).process(image)
        let size = image.bitmap.size
        image.sourceSize = !autoRotate && image.orientation.swapsDimensions ? size.transposed : size
        return image
    }

    /// The rectangle of what is not border, or `nil` when nothing is cut.
    package static func content(of bitmap: Bitmap, trim: TrimOption) -> PixelRect? {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0 else { return nil }
        let threshold = Int(trim.threshold.rounded(.down))
        let corner = flattened(bitmap.rgba(x: 0, y: 0))
        let background = trim.color.map { (Int($0.red), Int($0.green), Int($0.blue)) } ?? corner
        let format = bitmap.format, rowBytes = bitmap.bytesPerRow, step = format.bytesPerPixel
        let grey = format == .gray8, hasAlpha = format.hasAlpha
        let (red, blue) = format == .bgra8 || format == .bgrx8 ? (2, 0) : (0, 2)
        let bounds = bitmap.withUnsafeBytes { raw -> (top: Int, bottom: Int, left: Int, right: Int)? in
            let p = raw.bindMemory(to: UInt8.self)
            // One pass over the rows: the bounds of every pixel that is not border.
            func isBorder(_ i: Int) -> Bool {
                var r: Int, g: Int, b: Int
                if grey {
                    r = Int(p[i])
                    g = r
                    b = r
                } else {
                    r = Int(p[i + red])
                    g = Int(p[i + 1])
                    b = Int(p[i + blue])
                    if hasAlpha {
                        // Premultiplied over magenta: the colour plus magenta where it is clear.
                        let clear = 255 - Int(p[i + 3])
                        r += clear
                        b += clear
                    }
                }
                return abs(r - background.0) <= threshold && abs(g - background.1) <= threshold && abs(b - background.2) <= threshold
            }
            var top = height, bottom = -1, left = width, right = -1
            for y in 0..<height {
                let row = y * rowBytes
                var first = -1
                for x in 0..<width where !isBorder(row + x * step) {
                    first = x
                    break
                }
                guard first >= 0 else { continue }
                var last = first
                for x in stride(from: width - 1, to: first, by: -1) where !isBorder(row + x * step) {
                    last = x
                    break
                }
                top = min(top, y)
                bottom = y
                left = min(left, first)
                right = max(right, last)
            }
            return bottom >= 0 ? (top, bottom, left, right) : nil
        }
        guard let bounds else { return nil }
        return rect(bounds, width: width, height: height, trim: trim)
    }

    /// The rectangle of the content's bounds, the same cut from both sides where `trim` asks
    /// for equal sides; `nil` when that is the whole image.
    private static func rect(
        _ bounds: (top: Int, bottom: Int, left: Int, right: Int), width: Int, height: Int, trim: TrimOption
    ) -> PixelRect? {
        var x = bounds.left, w = bounds.right - bounds.left + 1, y = bounds.top, h = bounds.bottom - bounds.top + 1
        if trim.equalHorizontal {
            let cut = min(bounds.left, width - 1 - bounds.right)
            x = cut
            w = width - 2 * cut
        }
        if trim.equalVertical {
            let cut = min(bounds.top, height - 1 - bounds.bottom)
            y = cut
            h = height - 2 * cut
        }
        let rect = PixelRect(x: x, y: y, width: w, height: h)
        return rect == PixelRect(x: 0, y: 0, width: width, height: height) ? nil : rect
    }

    /// The colour over magenta (premultiplied: the colour plus magenta where it is transparent).
    private static func flattened(_ p: RGBA) -> (Int, Int, Int) {
        let clear = 255 - Int(p.a)
        return (Int(p.r) + clear, Int(p.g), Int(p.b) + clear)
    }
}
