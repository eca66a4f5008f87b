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
