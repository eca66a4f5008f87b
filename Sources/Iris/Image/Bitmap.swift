/// A block of pixels: the one pixel type every stage of Iris speaks.
///
/// Storage is copy-on-write (a Swift array), so passing a bitmap around is cheap and
/// mutating a shared one copies it first. Rows are `bytesPerRow` apart; a row may be padded.
public struct Bitmap: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// Layout of each pixel.
    public let format: PixelFormat
    /// The pixel bytes, `bytesPerRow * height` of them.
    public internal(set) var pixels: [UInt8]

    /// A bitmap of the given size with every byte zero (transparent black; black for opaque
    /// formats, whose filler byte of `rgbx8` is then set to 255).
    public init(width: Int, height: Int, format: PixelFormat) {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = width * format.bytesPerPixel
        var bytes = [UInt8](repeating: 0, count: bytesPerRow * height)
        if format == .rgbx8 {
            var index = 3
            while index < bytes.count { bytes[index] = 255; index += 4 }
        }
        self.pixels = bytes
    }

    /// Wraps existing bytes. Returns `nil` when `pixels` is too small for the geometry.
    public init?(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        guard width >= 0, height >= 0, stride >= width * format.bytesPerPixel,
              pixels.count >= stride * height else { return nil }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.pixels = pixels
    }

    /// Memory the pixels take, in bytes: what caches count.
    public var cost: Int { pixels.count }

    /// Width and height.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Calls `body` with the raw pixel bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes(body)
    }

    /// Calls `body` with the raw pixel bytes, writable (copies first if shared).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBytes(body)
    }

    /// The pixel at (`x`, `y`) as premultiplied RGBA; grey and opaque formats are expanded.
    public func rgba(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        switch format {
        case .rgba8:
            return RGBA(r: pixels[offset], g: pixels[offset + 1], b: pixels[offset + 2], a: pixels[offset + 3])
        case .rgbx8:
            return RGBA(r: pixels[offset], g: pixels[offset + 1], b: pixels[offset + 2], a: 255)
        case .gray8:
            let v = pixels[offset]
            return RGBA(r: v, g: v, b: v, a: 255)
        }
    }

    /// Sets the pixel at (`x`, `y`) from premultiplied RGBA (grey takes the luma).
    public mutating func setRGBA(_ value: RGBA, x: Int, y: Int) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        switch format {
        case .rgba8:
            pixels[offset] = value.r; pixels[offset + 1] = value.g; pixels[offset + 2] = value.b; pixels[offset + 3] = value.a
        case .rgbx8:
            pixels[offset] = value.r; pixels[offset + 1] = value.g; pixels[offset + 2] = value.b; pixels[offset + 3] = 255
        case .gray8:
            pixels[offset] = value.luma
        }
    }
}

/// One pixel as four 8-bit channels; in a ``Bitmap`` colour is premultiplied by alpha.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    /// Makes a pixel from its four channels.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Rec. 601 luma of the colour, rounded.
    public var luma: UInt8 {
        let weighted: Int = 299 * Int(r) + 587 * Int(g) + 114 * Int(b)
        return UInt8((weighted + 500) / 1000)
    }

    public var description: String { "RGBA(\(r), \(g), \(b), \(a))" }
}

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// Makes a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width × height.
    public var pixelCount: Int { width * height }

    /// The size with width and height exchanged (EXIF orientations 5–8).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width)×\(height)" }
}
