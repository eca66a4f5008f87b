/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
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

    /// "width×height".
    public var description: String { "\(width)×\(height)" }
}
