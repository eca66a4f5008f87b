extension Bitmap {
    /// The bitmap turned upright for EXIF `orientation` (5–8 exchange width and height).
    ///
    /// For a stored bitmap of `W`×`H`, the stored pixel at (x, y) lands at:
    ///
    /// | EXIF | meaning (EXIF 2.3, tag 0x0112)                                   | lands at           | output |
    /// |------|------------------------------------------------------------------|--------------------|--------|
    /// | 1    | row 0 is the visual top, column 0 the visual left: as is          | (x, y)             | W×H    |
    /// | 2    | row 0 top, column 0 right: mirror horizontally                    | (W-1-x, y)         | W×H    |
    /// | 3    | row 0 bottom, column 0 right: rotate 180°                         | (W-1-x, H-1-y)     | W×H    |
    /// | 4    | row 0 bottom, column 0 left: mirror vertically                    | (x, H-1-y)         | W×H    |
    /// | 5    | row 0 left, column 0 top: transpose                               | (y, x)             | H×W    |
    /// | 6    | row 0 is the visual **right**-hand side, column 0 the visual top: rotate 90° clockwise | (H-1-y, x) | H×W |
    /// | 7    | row 0 right, column 0 bottom: transverse                          | (H-1-y, W-1-x)     | H×W    |
    /// | 8    | row 0 is the visual **left**-hand side, column 0 the visual bottom: rotate 90° counter-clockwise | (y, W-1-x) | H×W |
    ///
    /// The result keeps the pixel format (and straight alpha) and the row alignment: rows aligned
    /// for display (``isAlignedForDisplay``: an Apple decode, drawn for Core Animation) stay
    /// aligned, whatever the turned width; others are tightly packed
    /// (`bytesPerRow == width * bytesPerPixel`). Orientation 1 returns the bitmap itself without
    /// copying.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let swaps = orientation.swapsDimensions
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        let bpp = format.bytesPerPixel
        if outWidth * bpp * outHeight == 0 {
            return Bitmap(width: outWidth, height: outHeight, format: format)
        }
        let plan = OrientationPlan(orientation, width: width, height: height, bytesPerRow: bytesPerRow, bytesPerPixel: bpp)
        let straight = !isPremultiplied
        let alignment = isAlignedForDisplay ? Self.displayRowAlignment : 1
        let rowBytes = outWidth * bpp
        let outStride = (rowBytes + alignment - 1) / alignment * alignment
        var out = withUnsafeBytes { source in
            Bitmap(width: outWidth, height: outHeight, format: format, rowAlignment: alignment) { output in
                let src = source.baseAddress!, dst = output.baseAddress!
                switch bpp {
                case 4: plan.run(UInt32.self, from: src, to: dst, outWidth: outWidth, outHeight: outHeight, outStride: outStride)
                default: plan.run(UInt8.self, from: src, to: dst, outWidth: outWidth, outHeight: outHeight, outStride: outStride)
                }
                if outStride > rowBytes {  // the padding of aligned rows: zeros, as a new bitmap's
                    for row in 0..<outHeight {
                        (dst + row * outStride + rowBytes).initializeMemory(as: UInt8.self, repeating: 0, count: outStride - rowBytes)
                    }
                }
            }
        }
        if straight { out = out.markedStraight() }
        return out.keepingColorSpace(of: self)
    }
}

/// Where each output row of an orientation reads from: the source byte offset of output pixel
/// (0, dy) is `origin + dy * rowStep`, and each next pixel in the row is `pixelStep` bytes on.
private struct OrientationPlan {
    let origin: Int
    let rowStep: Int
    let pixelStep: Int
    /// Whether output rows walk source columns (5–8): then the copy goes in cache-sized tiles.
    let walksColumns: Bool

    init(_ orientation: Orientation, width: Int, height: Int, bytesPerRow: Int, bytesPerPixel bpp: Int) {
        let lastX = (width - 1) * bpp
        let lastY = (height - 1) * bytesPerRow
        // Inverting "lands at" from the table above: output (dx, dy) reads the stored pixel at
        switch orientation {
        case .up: (origin, rowStep, pixelStep) = (0, bytesPerRow, bpp)  // (dx, dy)
        case .upMirrored: (origin, rowStep, pixelStep) = (lastX, bytesPerRow, -bpp)  // (W-1-dx, dy)
        case .down: (origin, rowStep, pixelStep) = (lastX + lastY, -bytesPerRow, -bpp)  // (W-1-dx, H-1-dy)
        case .downMirrored: (origin, rowStep, pixelStep) = (lastY, -bytesPerRow, bpp)  // (dx, H-1-dy)
        case .leftMirrored: (origin, rowStep, pixelStep) = (0, bpp, bytesPerRow)  // (dy, dx)
        case .right: (origin, rowStep, pixelStep) = (lastY, bpp, -bytesPerRow)  // (dy, H-1-dx)
        case .rightMirrored: (origin, rowStep, pixelStep) = (lastX + lastY, -bpp, -bytesPerRow)  // (W-1-dy, H-1-dx)
        case .left: (origin, rowStep, pixelStep) = (lastX, -bpp, bytesPerRow)  // (W-1-dy, dx)
        }
        walksColumns = orientation.swapsDimensions
    }

    /// Tile edge in pixels for the column-walking orientations: a tile's source rows stay in cache.
    static let tile = 64

    /// Copies every output pixel, moving `Pixel`-sized values.
    @inline(__always)
    func run<Pixel: FixedWidthInteger>(
        _: Pixel.Type, from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer,
        outWidth: Int, outHeight: Int, outStride: Int
    ) {
        let size = MemoryLayout<Pixel>.size
        if !walksColumns {
            for dy in 0..<outHeight {
                copySpan(Pixel.self, src + (origin + dy * rowStep), dst + dy * outStride, count: outWidth, size: size)
            }
            return
        }
        let tile = Self.tile
        var ty = 0
        while ty < outHeight {
            let rows = min(tile, outHeight - ty)
            var tx = 0
            while tx < outWidth {
                let count = min(tile, outWidth - tx)
                for dy in ty..<(ty + rows) {
                    let from = src + (origin + dy * rowStep + tx * pixelStep)
                    copySpan(Pixel.self, from, dst + (dy * outStride + tx * size), count: count, size: size)
                }
                tx += tile
            }
            ty += tile
        }
    }

    /// Copies `count` pixels to consecutive output slots, reading `pixelStep` bytes apart.
    @inline(__always)
    private func copySpan<Pixel: FixedWidthInteger>(
        _: Pixel.Type, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, count: Int, size: Int
    ) {
        if pixelStep == size {
            to.copyMemory(from: from, byteCount: count * size)
            return
        }
        var read = from
        var write = to
        let step = pixelStep
        for _ in 0..<count {
            write.storeBytes(of: read.loadUnaligned(as: Pixel.self), as: Pixel.self)
            read += step
            write += size
        }
    }
}
