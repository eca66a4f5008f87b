import Iris

/// Cuts borders of one colour off the source (imgproxy's `trim`), before anything else: a
/// pixel belongs to the border when no channel is further than the threshold from the border
/// colour (the given one, else the top-left pixel's); transparent pixels count as magenta, as
/// in imgproxy, so a transparent border is cut too. With `equalHorizontal` the left and right
/// cuts are the lesser of the two, likewise `equalVertical`. An image that is all border is
/// left whole. The geometry that follows sees the trimmed image as the source.
public struct TrimProcessor: ImageProcessing, Hashable {
    /// The trim.
    public var trim: TrimOption
    /// Whether the bitmap is upright (`auto_rotate`): the source size follows the bitmap's.
    public var autoRotate: Bool

    /// Makes a trim step.
    public init(trim: TrimOption, autoRotate: Bool) {
        self.trim = trim
        self.autoRotate = autoRotate
    }

    /// What the memory cache key records.
    public var identifier: String {
        "iris-server.trim(\(trim.threshold),\(trim.color?.hex ?? "corner"),\(trim.equalHorizontal),\(trim.equalVertical))"
    }

    /// Returns the trimmed image.
    public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        guard let rect = Self.content(of: image.bitmap, trim: trim) else { return image }
        var image = try ImageProcessors.Crop(rect: rect).process(image)
        let size = image.bitmap.size
        image.sourceSize = !autoRotate && image.orientation.swapsDimensions ? size.transposed : size
        return image
    }

    /// The rectangle of what is not border, or `nil` when nothing is cut.
    public static func content(of bitmap: Bitmap, trim: TrimOption) -> PixelRect? {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0 else { return nil }
        let threshold = trim.threshold
        let background: (Double, Double, Double) = trim.color.map { (Double($0.red), Double($0.green), Double($0.blue)) }
            ?? flattened(bitmap.rgba(x: 0, y: 0))
        func isBorder(_ x: Int, _ y: Int) -> Bool {
            let p = flattened(bitmap.rgba(x: x, y: y))
            return abs(p.0 - background.0) <= threshold && abs(p.1 - background.1) <= threshold && abs(p.2 - background.2) <= threshold
        }
        func rowIsBorder(_ y: Int) -> Bool { (0..<width).allSatisfy { isBorder($0, y) } }
        func columnIsBorder(_ x: Int, _ rows: Range<Int>) -> Bool { rows.allSatisfy { isBorder(x, $0) } }
        guard let top = (0..<height).first(where: { !rowIsBorder($0) }) else { return nil }
        let bottom = (top..<height).last(where: { !rowIsBorder($0) })!
        let rows = top..<(bottom + 1)
        let left = (0..<width).first(where: { !columnIsBorder($0, rows) })!
        let right = (left..<width).last(where: { !columnIsBorder($0, rows) })!
        var x = left, w = right - left + 1, y = top, h = bottom - top + 1
        if trim.equalHorizontal {
            let cut = min(left, width - 1 - right)
            x = cut
            w = width - 2 * cut
        }
        if trim.equalVertical {
            let cut = min(top, height - 1 - bottom)
            y = cut
            h = height - 2 * cut
        }
        let rect = PixelRect(x: x, y: y, width: w, height: h)
        return rect == PixelRect(x: 0, y: 0, width: width, height: height) ? nil : rect
    }

    /// The colour over magenta (premultiplied: the colour plus magenta where it is transparent).
    private static func flattened(_ p: RGBA) -> (Double, Double, Double) {
        let clear = Double(255 - Int(p.a))
        return (Double(p.r) + clear, Double(p.g), Double(p.b) + clear)
    }
}
