/// One pixel as four 8-bit channels; in a ``Bitmap`` colour is premultiplied by alpha.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    /// Red.
    public var r: UInt8
    /// Green.
    public var g: UInt8
    /// Blue.
    public var b: UInt8
    /// Alpha (255: opaque).
    public var a: UInt8

    /// Makes a pixel from its four channels.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Rec. 601 luma of the colour, rounded.
    public var luma: UInt8 {
        let weighted: Int = 299 * Int(r) + 587 * Int(g) + 114 * Int(b)
        return UInt8((weighted + 500) / 1000)
    }

    /// "RGBA(r, g, b, a)".
    public var description: String { "RGBA(\(r), \(g), \(b), \(a))" }
}
