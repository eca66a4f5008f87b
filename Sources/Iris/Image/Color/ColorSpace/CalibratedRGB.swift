/// What a PNG's `gAMA`, `cHRM` and `sRGB` chunks say (PNG 3rd edition, 11.3.2): the facts
/// as stored, and the RGB space they describe when no ICC profile overrides them.
public struct CalibratedRGB: Sendable, Hashable, CustomStringConvertible {
    /// A CIE 1931 chromaticity.
    public struct Chromaticity: Sendable, Hashable {
        /// The CIE 1931 x coordinate.
        public var x: Double
        /// The CIE 1931 y coordinate.
        public var y: Double
        /// Makes a chromaticity.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The white point and the three primaries of a `cHRM` chunk.
    public struct Primaries: Sendable, Hashable {
        /// The white point.
        public var white: Chromaticity
        /// The red primary.
        public var red: Chromaticity
        /// The green primary.
        public var green: Chromaticity
        /// The blue primary.
        public var blue: Chromaticity
        /// Makes primaries.
        public init(white: Chromaticity, red: Chromaticity, green: Chromaticity, blue: Chromaticity) {
            self.white = white
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// sRGB's (and Rec. 709's): D65 white.
        public static let sRGB = Primaries(
            white: Chromaticity(x: 0.3127, y: 0.3290),
            red: Chromaticity(x: 0.64, y: 0.33),
            green: Chromaticity(x: 0.30, y: 0.60),
            blue: Chromaticity(x: 0.15, y: 0.06))

        /// Whether every chromaticity is within `tolerance` of `other`'s.
        func isClose(to other: Primaries, tolerance: Double) -> Bool {
            let pairs = [(white, other.white), (red, other.red), (green, other.green), (blue, other.blue)]
            return pairs.allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance }
        }
    }

    /// `gAMA`: the file gamma (encoding exponent, 1/2.2 ≈ 0.45455 for most files), if present.
    public var gamma: Double?
    /// `cHRM`, if present.
    public var primaries: Primaries?
    /// `sRGB`: the rendering intent (0–3), if the chunk is present.
    public var sRGBIntent: Int?

    /// Makes the facts of one file.
    public init(gamma: Double? = nil, primaries: Primaries? = nil, sRGBIntent: Int? = nil) {
        self.gamma = gamma
        self.primaries = primaries
        self.sRGBIntent = sRGBIntent
    }

    /// Whether the chunks say sRGB, or near enough that a converted image would differ by less
    /// than a level or so: an `sRGB` chunk, no chunks at all, or a gamma within 3 % of 1/2.2
    /// with sRGB's primaries (or none).
    public var isApproximatelySRGB: Bool {
        if sRGBIntent != nil { return true }
        if let gamma, abs(gamma * 2.2 - 1) > 0.03 { return false }
        if let primaries, !primaries.isClose(to: .sRGB, tolerance: 0.01) { return false }
        return true
    }

    /// The colour space the chunks describe: ``ColorSpace/sRGB`` when
    /// ``isApproximatelySRGB``, else ``ColorSpace/calibrated(_:)``.
    public var colorSpace: ColorSpace { isApproximatelySRGB ? .sRGB : .calibrated(self) }

    /// The gamma and primaries, as a PNG's chunks state them.
    public var description: String {
        var parts: [String] = []
        if let gamma { parts.append("gAMA \(gamma)") }
        if let primaries {
            parts.append(
                "cHRM white (\(primaries.white.x), \(primaries.white.y)) red (\(primaries.red.x), \(primaries.red.y)) green (\(primaries.green.x), \(primaries.green.y)) blue (\(primaries.blue.x), \(primaries.blue.y))"
            )
        }
        if let sRGBIntent { parts.append("sRGB intent \(sRGBIntent)") }
        return parts.isEmpty ? "(no chunks)" : parts.joined(separator: ", ")
    }
}
