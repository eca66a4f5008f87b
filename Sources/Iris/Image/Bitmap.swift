/// A block of pixels: the one pixel type every stage of Iris speaks.
///
/// Storage is copy-on-write: one raw allocation owned by a reference-counted object, so passing
/// a bitmap around is cheap and mutating a shared one copies it first. Rows are `bytesPerRow`
/// apart; a row may be padded. Two bitmaps are equal when they have the same size, format and
/// pixels (padding and row stride aside).
public struct Bitmap: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// Layout of each pixel.
    public let format: PixelFormat
    /// Whether the colour of a format with alpha is premultiplied by alpha (`true`, what every
    /// processor, resampler and view expects) or straight, as the file stored it: what a decode
    /// with ``DecodeOptions/keepsStraightAlpha`` gives, for encoders to write back unchanged
    /// (no rounding through premultiplication). Opaque formats ignore it. See
    /// ``premultiplied()``.
    public internal(set) var isPremultiplied = true
    /// The bytes; shared between copies until one of them writes.
    private(set) var storage: BitmapStorage
    /// The colour space a decoder (or whoever made the pixels) tagged them with; `nil` for an
    /// untagged bitmap, which ``colorSpace`` reads as sRGB.
    var taggedColorSpace: ColorSpace? {
        get { colorSpaceBox?.value }
        set { colorSpaceBox = newValue.map(ColorSpaceBox.init) }
    }
    /// ``taggedColorSpace`` behind one reference: a bitmap is copied on every hand-over (cache
    /// hits, frames), and an inline profile would make each copy walk its fields.
    private var colorSpaceBox: ColorSpaceBox?
    /// The platform image last made of these pixels (``cgImage`` on Apple platforms), shared by
    /// copies, so a view drawing the same pixels again hands the screen the same image (no new
    /// image, no new upload); a copy that writes takes a new one.
    private(set) var renderingMemo = BitmapRenderingMemo()

    /// A bitmap of the given size with every byte zero (transparent black; black for opaque
    /// formats, whose filler byte of `rgbx8` and `bgrx8` is then set to 255).
    public init(width: Int, height: Int, format: PixelFormat) {
        self.init(width: width, height: height, format: format, rowAlignment: 1)
    }

    /// The row alignment, in bytes, at which Core Animation draws an image in place: a `CGImage`
    /// whose rows are not aligned so is copied on the main thread when it is committed.
    public static let displayRowAlignment = 64

    /// Whether the rows are aligned to ``displayRowAlignment`` (the first row is: storage is).
    public var isAlignedForDisplay: Bool { bytesPerRow % Self.displayRowAlignment == 0 }

    /// This bitmap with its rows aligned to ``displayRowAlignment``: itself when they are, else
    /// a copy made once, off the main thread, where the image is made (a processor's output, an
    /// animation frame), rather than by Core Animation on the main thread at every commit.
    public func alignedForDisplay() -> Bitmap {
        guard !isAlignedForDisplay, height > 0 else { return self }
        var aligned = Bitmap(width: width, height: height, format: format, rowAlignment: Self.displayRowAlignment)
        aligned.isPremultiplied = isPremultiplied
        aligned.taggedColorSpace = taggedColorSpace
        let rowBytes = width * format.bytesPerPixel
        let targetStride = aligned.bytesPerRow
        withUnsafeBytes { source in
            aligned.withUnsafeMutableBytes { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for row in 0..<height {
                    (to + row * targetStride).copyMemory(from: from + row * bytesPerRow, byteCount: rowBytes)
                }
            }
        }
        return aligned
    }

    /// A blank bitmap (as ``init(width:height:format:)``) whose `bytesPerRow` is the smallest
    /// multiple of `rowAlignment` that holds a row. Core Animation draws an image in place only
    /// when its rows are aligned to 64 bytes, so the Apple decoder asks for that.
    public init(width: Int, height: Int, format: PixelFormat, rowAlignment: Int) {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        precondition(rowAlignment > 0, "row alignment must be positive")
        self.width = width
        self.height = height
        self.format = format
        let rowBytes = width * format.bytesPerPixel
        let stride = (rowBytes + rowAlignment - 1) / rowAlignment * rowAlignment
        self.bytesPerRow = stride
        storage = BitmapStorage(zeroedCount: stride * height)
        if format.bytesPerPixel == 4 && !format.hasAlpha {
            let p = storage.bytes.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                var index = y * stride + 3
                for _ in 0..<width {
                    p[index] = 255
                    index += 4
                }
            }
        }
    }

    /// Wraps existing bytes (copying them once into the bitmap's storage). Returns `nil` when
    /// `pixels` is too small for the geometry.
    public init?(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        guard width >= 0, height >= 0, stride >= width * format.bytesPerPixel,
            pixels.count >= stride * height
        else { return nil }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        storage = pixels.withUnsafeBytes { BitmapStorage(copying: $0) }
    }

    /// A bitmap whose bytes `fill` writes, every one of them (a row's padding too), straight into
    /// the new storage (nothing is zeroed first). Rows are tightly packed, or padded to a multiple
    /// of `rowAlignment` bytes.
    init(
        width: Int, height: Int, format: PixelFormat, rowAlignment: Int = 1,
        initializingWith fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        precondition(rowAlignment > 0, "row alignment must be positive")
        self.width = width
        self.height = height
        self.format = format
        let rowBytes = width * format.bytesPerPixel
        self.bytesPerRow = (rowBytes + rowAlignment - 1) / rowAlignment * rowAlignment
        storage = BitmapStorage(uninitializedCount: bytesPerRow * height)
        try fill(storage.mutableBuffer)
    }

    /// A copy of the pixel bytes, `bytesPerRow * height` of them (or more, when the bitmap was
    /// made from a longer array).
    ///
    /// Every call copies the whole bitmap: read single pixels with ``rgba(x:y:)`` and many
    /// bytes with ``withUnsafeBytes(_:)``.
    public var pixels: [UInt8] { [UInt8](storage.buffer) }

    /// Memory the pixels take, in bytes: what caches count.
    public var cost: Int { storage.count }

    /// Whether `other` shares these pixels (a copy not yet written to): a view that already shows
    /// them need not hand them to the screen again.
    public func sharesStorage(with other: Bitmap) -> Bool { storage === other.storage }

    /// Whether this value is the only copy of the bitmap (no other `Bitmap` shares its pixels):
    /// a cache holding the only copy frees the pixels by dropping it, while a bitmap that some
    /// view also holds costs nothing more for being cached.
    mutating func isOnlyCopy() -> Bool { isKnownUniquelyReferenced(&renderingMemo) }

    /// Width and height.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Calls `body` with the raw pixel bytes.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(storage) { storage throws(E) in try body(storage.buffer) }
    }

    /// Calls `body` with the raw pixel bytes, writable (copies first if shared).
    public mutating func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
            // The memo's image (if any) shows the old pixels: it stays with the copies that still
            // share them, and this bitmap no longer keeps it (nor, through it, the old storage).
            renderingMemo = BitmapRenderingMemo()
        }
        return try withExtendedLifetime(storage) { storage throws(E) in try body(storage.mutableBuffer) }
    }

    /// The pixel at (`x`, `y`) as premultiplied RGBA (straight when ``isPremultiplied`` is
    /// false), in that order whatever the layout; grey and opaque formats are expanded.
    public func rgba(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        let format = self.format
        return withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            if format == .gray8 {
                let v = p[offset]
                return RGBA(r: v, g: v, b: v, a: 255)
            }
            return RGBA(
                r: p[offset + format.redOffset], g: p[offset + 1], b: p[offset + format.blueOffset],
                a: format.hasAlpha ? p[offset + 3] : 255)
        }
    }

    /// Sets the pixel at (`x`, `y`) from premultiplied RGBA, given in that order whatever the
    /// layout (grey takes the luma; opaque formats store 255 in the filler byte).
    public mutating func setRGBA(_ value: RGBA, x: Int, y: Int) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        let format = self.format
        withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            if format == .gray8 {
                p[offset] = value.luma
                return
            }
            p[offset + format.redOffset] = value.r
            p[offset + 1] = value.g
            p[offset + format.blueOffset] = value.b
            p[offset + 3] = format.hasAlpha ? value.a : 255
        }
    }
}

/// A colour space held by reference (see ``Bitmap/taggedColorSpace``).
private final class ColorSpaceBox: Sendable {
    let value: ColorSpace
    init(_ value: ColorSpace) { self.value = value }
}
