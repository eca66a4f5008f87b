/// A rectangle in whole pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge, in pixels.
    public var x: Int
    /// The top edge, in pixels.
    public var y: Int
    /// The width, in pixels.
    public var width: Int
    /// The height, in pixels.
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part of `self` inside a `size` image; empty sizes when they do not overlap.
    func clamped(to size: PixelSize) -> PixelRect {
        let left = max(0, x), top = max(0, y)
        let right = min(size.width, x + width), bottom = min(size.height, y + height)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// "x,y,widthxheight".
    public var description: String { "\(x),\(y),\(width)x\(height)" }
}
