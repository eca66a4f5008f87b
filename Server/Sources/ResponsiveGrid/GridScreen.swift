/// A grid of square cells across a screen, as an app lays out a photo grid: the slot each cell
/// offers its image, and the display scale.
public struct GridScreen: Sendable, Hashable, CustomStringConvertible {
    /// The screen's width, in points.
    public var width: Double
    /// Cells per row.
    public var columns: Int
    /// Pixels per point.
    public var scale: Double
    /// Space between cells, in points.
    public var spacing: Double

    /// A grid of `columns` square cells across `width` points at `scale`.
    public init(width: Double, columns: Int, scale: Double, spacing: Double = 2) {
        self.width = width
        self.columns = max(1, columns)
        self.scale = scale
        self.spacing = spacing
    }

    /// An iPhone's 3-column grid: 390 pt at 3×.
    public static let phone = GridScreen(width: 390, columns: 3, scale: 3)
    /// An iPad's grid: 1,024 pt at 2×, 4 columns.
    public static let pad = GridScreen(width: 1024, columns: 4, scale: 2)

    /// The side of a cell, in points.
    public var cellSide: Double {
        (width - spacing * Double(columns - 1)) / Double(columns)
    }

    /// The side of a cell, in pixels (rounded up).
    public var cellPixels: Int { Int((cellSide * scale).rounded(.up)) }

    /// "390 pt × 3 columns @3x".
    public var description: String { "\(Int(width)) pt × \(columns) columns @\(Int(scale))x" }
}
