/// The built-in processors. Use them through the `.resize(…)`, `.crop(…)`, `.roundedCorners(…)`,
/// `.circle`, `.gaussianBlur(…)`, `.grayscale` and `.custom(…)` shorthands on ``ImageProcessing``.
public enum ImageProcessors {}

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
