extension Bitmap {
    /// The picture composited over an opaque `background`, in this layout's opaque format
    /// (what a format without alpha, such as JPEG, needs). Opaque bitmaps are returned as
    /// they are.
    public func flattened(over background: RGBA) -> Bitmap {
        guard format.hasAlpha else { return self }
        if !isPremultiplied { return premultiplied().flattened(over: background) }
        var out = converted(to: format.withoutAlpha)
        let bytes = format.bytesPerPixel
        let (red, blue) = format.isBlueFirst ? (2, 0) : (0, 2)
        let (width, height, stride, outStride) = (width, height, bytesPerRow, out.bytesPerRow)
        let fill = (r: UInt32(background.r), g: UInt32(background.g), b: UInt32(background.b))
        withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = y * stride + x * bytes
                        let t = y * outStride + x * bytes
                        // Premultiplied: colour + background × (1 − alpha).
                        let uncovered = 255 - UInt32(source[s + 3])
                        target[t + red] = UInt8(min(255, UInt32(source[s + red]) + UInt32(PixelConversion.mulDiv255(fill.r, uncovered))))
                        target[t + 1] = UInt8(min(255, UInt32(source[s + 1]) + UInt32(PixelConversion.mulDiv255(fill.g, uncovered))))
                        target[t + blue] = UInt8(min(255, UInt32(source[s + blue]) + UInt32(PixelConversion.mulDiv255(fill.b, uncovered))))
                    }
                }
            }
        }
        return out
    }
}
