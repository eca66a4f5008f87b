/// The built-in processors. Use them through the `.resize(…)`, `.crop(…)`, `.roundedCorners(…)`,
/// `.circle`, `.gaussianBlur(…)`, `.grayscale` and `.custom(…)` shorthands on ``ImageProcessing``.
public enum ImageProcessors {}

/// A rectangle in whole pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part of `self` inside a `size` image; empty sizes when they do not overlap.
    func clamped(to size: PixelSize) -> PixelRect {
        let left = max(0, x), top = max(0, y)
        let right = min(size.width, x + width), bottom = min(size.height, y + height)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    public var description: String { "\(x),\(y),\(width)x\(height)" }
}

extension LoadedImage {
    /// The same image with other pixels (metadata kept, animation dropped: processors act on
    /// the still image).
    func replacingBitmap(_ bitmap: Bitmap) -> LoadedImage {
        var copy = self
        copy.bitmap = bitmap
        copy.animation = nil
        return copy
    }
}

extension Bitmap {
    /// A copy of the pixels inside `rect` (which must lie inside the bitmap).
    func cropped(to rect: PixelRect) -> Bitmap {
        var out = Bitmap(width: rect.width, height: rect.height, format: format)
        let bpp = format.bytesPerPixel
        let rowBytes = rect.width * bpp
        let stride = bytesPerRow
        let outStride = out.bytesPerRow
        withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for row in 0..<rect.height {
                    let from = (rect.y + row) * stride + rect.x * bpp
                    dst.baseAddress!.advanced(by: row * outStride)
                        .copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
        return out
    }
}
