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
