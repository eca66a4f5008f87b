/// EXIF orientation: how the stored pixels must be turned to be seen upright.
///
/// Raw values are the EXIF tag values 1–8. Cases 5–8 exchange width and height.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left–right.
    case upMirrored = 2
    /// 3: turned 180°.
    case down = 3
    /// 4: mirrored top–bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored across the top-left to bottom-right diagonal).
    case leftMirrored = 5
    /// 6: must be turned 90° clockwise to be upright.
    case right = 6
    /// 7: transversed (mirrored across the other diagonal).
    case rightMirrored = 7
    /// 8: must be turned 90° counter-clockwise to be upright.
    case left = 8

    /// Whether showing the image upright exchanges its width and height (5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}
