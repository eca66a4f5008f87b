/// Row-level conversions between pixel layouts, shared by decoders, encoders and ``Bitmap``.
public enum PixelConversion {
    /// Premultiplies straight-alpha RGBA pixels in place: `c = round(c * a / 255)`.
    public static func premultiplyRGBA(_ row: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        let p = row.bindMemory(to: UInt8.self)
        var i = 0
        for _ in 0..<pixelCount {
            let a = UInt32(p[i + 3])
            if a != 255 {
                p[i] = mulDiv255(UInt32(p[i]), a)
                p[i + 1] = mulDiv255(UInt32(p[i + 1]), a)
                p[i + 2] = mulDiv255(UInt32(p[i + 2]), a)
            }
            i += 4
        }
    }

    /// Turns premultiplied RGBA back into straight alpha in place (for encoders).
    public static func unpremultiplyRGBA(_ row: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        let p = row.bindMemory(to: UInt8.self)
        var i = 0
        for _ in 0..<pixelCount {
            let a = UInt32(p[i + 3])
            if a == 0 {
                p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
            } else if a != 255 {
                p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
            }
            i += 4
        }
    }

    /// `round(x * a / 255)` for 8-bit values without a division.
    @inline(__always)
    static func mulDiv255(_ x: UInt32, _ a: UInt32) -> UInt8 {
        let t = x * a + 128
        return UInt8((t + (t >> 8)) >> 8)
    }
}

extension Bitmap {
    /// The same picture in another pixel format.
    ///
    /// Colour to grey takes Rec. 601 luma; dropping alpha composites over black (the colour is
    /// premultiplied, so the colour channels are kept as they are).
    public func converted(to target: PixelFormat) -> Bitmap {
        if target == format { return self }
        var out = Bitmap(width: width, height: height, format: target)
        let srcBPP = format.bytesPerPixel
        let dstBPP = target.bytesPerPixel
        let source = self.format
        let stride = bytesPerRow
        let width = self.width
        let height = self.height
        let outStride = out.bytesPerRow
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    var s = y * stride
                    var d = y * outStride
                    for _ in 0..<width {
                        switch (source, target) {
                        case (.gray8, _):
                            let v = src[s]
                            dst[d] = v; dst[d + 1] = v; dst[d + 2] = v; dst[d + 3] = 255
                        case (_, .gray8):
                            dst[d] = RGBA(r: src[s], g: src[s + 1], b: src[s + 2]).luma
                        default: // rgba8 <-> rgbx8
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                        }
                        s += srcBPP
                        d += dstBPP
                    }
                }
            }
        }
        return out
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        guard format == .rgba8 else { return true }
        for y in 0..<height {
            var i = y * bytesPerRow + 3
            for _ in 0..<width {
                if pixels[i] != 255 { return false }
                i += 4
            }
        }
        return true
    }
}
