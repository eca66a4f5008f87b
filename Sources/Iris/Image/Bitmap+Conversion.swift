extension Bitmap {
    /// The same picture in another pixel format, any of the five to any other.
    ///
    /// Colour to grey takes Rec. 601 luma; dropping alpha composites over black (the colour is
    /// premultiplied, so the colour channels are kept as they are); between RGB and BGR orders
    /// red and blue change places. The result is tightly packed and written straight into its
    /// storage. Straight alpha stays straight between formats with alpha, and is premultiplied
    /// first for the others.
    public func converted(to target: PixelFormat) -> Bitmap {
        if target == format { return self }
        if !isPremultiplied, format.hasAlpha, !target.hasAlpha { return premultiplied().converted(to: target) }
        let source = format, stride = bytesPerRow, width = width, height = height
        let keepsStraight = !isPremultiplied && format.hasAlpha
        return withUnsafeBytes { src in
            var out = Bitmap(width: width, height: height, format: target) { dst in
                let outStride = width * target.bytesPerPixel
                for y in 0..<height {
                    PixelConversion.convertRow(
                        from: src.baseAddress! + y * stride, source,
                        to: dst.baseAddress! + y * outStride, target, count: width)
                }
            }
            if keepsStraight { out = out.markedStraight() }
            return out.keepingColorSpace(of: self)
        }
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        guard format.hasAlpha else { return true }
        return withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                var i = y * bytesPerRow + 3
                for _ in 0..<width {
                    if p[i] != 255 { return false }
                    i += 4
                }
            }
            return true
        }
    }
}

extension Bitmap {
    /// The bitmap in red-first byte order (`bgra8` → `rgba8`, `bgrx8` → `rgbx8`); others as
    /// they are. For encoders whose libraries take RGB order only.
    var inRGBOrder: Bitmap {
        switch format {
        case .bgra8: converted(to: .rgba8)
        case .bgrx8: converted(to: .rgbx8)
        case .rgba8, .rgbx8, .gray8: self
        }
    }
}
