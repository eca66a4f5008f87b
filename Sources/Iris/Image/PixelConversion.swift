/// Row-level conversions between pixel layouts, shared by decoders, encoders and ``Bitmap``.
enum PixelConversion {
    /// Premultiplies straight-alpha RGBA pixels in place: `c = round(c * a / 255)`. Works for
    /// BGRA alike: alpha is the fourth byte in both.
    static func premultiplyRGBA(_ row: UnsafeMutableRawBufferPointer, pixelCount: Int) {
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

    /// Turns premultiplied RGBA (or BGRA) back into straight alpha in place (for encoders).
    static func unpremultiplyRGBA(_ row: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        let p = row.bindMemory(to: UInt8.self)
        var i = 0
        for _ in 0..<pixelCount {
            let a = UInt32(p[i + 3])
            if a == 0 {
                p[i] = 0
                p[i + 1] = 0
                p[i + 2] = 0
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

extension PixelConversion {
    /// Converts `count` pixels from `source` layout at `from` to `target` layout at `to`.
    ///
    /// Colour to grey takes Rec. 601 luma; grey to colour repeats the level, opaque. Dropping
    /// alpha keeps the premultiplied colour (a composite over black); gaining it sets 255.
    static func convertRow(
        from: UnsafeRawPointer, _ source: PixelFormat,
        to: UnsafeMutableRawPointer, _ target: PixelFormat, count: Int
    ) {
        switch (source.bytesPerPixel, target.bytesPerPixel) {
        case (1, 1):
            to.copyMemory(from: from, byteCount: count)
        case (1, _):
            for i in 0..<count {
                let v = UInt32(from.load(fromByteOffset: i, as: UInt8.self))
                let word: UInt32 = v | v << 8 | v << 16 | 0xFF00_0000
                to.storeBytes(of: word.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
        case (_, 1):
            let red = source.redOffset, blue = source.blueOffset
            let p = from.assumingMemoryBound(to: UInt8.self)
            let q = to.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                q[i] = RGBA(r: p[4 * i + red], g: p[4 * i + 1], b: p[4 * i + blue]).luma
            }
        default:
            convertFourByteRow(from: from, source, to: to, target, count: count)
        }
    }

    /// Between four-byte layouts: red and blue exchange places when the orders differ; the
    /// fourth byte becomes 255 unless both layouts have alpha.
    private static func convertFourByteRow(
        from: UnsafeRawPointer, _ source: PixelFormat,
        to: UnsafeMutableRawPointer, _ target: PixelFormat, count: Int
    ) {
        // Words read little-endian: byte 0 is the low byte, the fourth byte the high one.
        let opaque: UInt32 = source.hasAlpha && target.hasAlpha ? 0 : 0xFF00_0000
        if source.isBlueFirst == target.isBlueFirst {
            for i in 0..<count {
                let v = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                to.storeBytes(of: (v | opaque).littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
            return
        }
        for i in 0..<count {
            let v = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            let swapped = (v & 0xFF00_FF00) | (v >> 16 & 0xFF) | (v & 0xFF) << 16
            to.storeBytes(of: (swapped | opaque).littleEndian, toByteOffset: 4 * i, as: UInt32.self)
        }
    }
}
