#if canImport(CPNG)
import CIrisShims
import Foundation

/// A PNG's colour chunks as libpng read them, and the colour space they give a bitmap.
struct PNGColorChunks {
    /// The `iCCP` profile, if it is a readable ICC profile.
    var profile: ICCProfile?
    /// `gAMA`, `cHRM` and `sRGB`.
    var calibration: CalibratedRGB

    /// Reads the shim's report (copying the profile out of libpng's memory).
    init(_ color: iris_png_color) {
        if let bytes = color.icc_profile, color.icc_profile_size > 0 {
            profile = ICCProfile(data: Data(bytes: bytes, count: Int(color.icc_profile_size)))
        }
        let fixed = { (value: Int32) in Double(value) / 100_000 }
        calibration = CalibratedRGB()
        if color.has_gamma != 0, color.gamma > 0 { calibration.gamma = fixed(color.gamma) }
        if color.has_srgb != 0 { calibration.sRGBIntent = Int(color.srgb_intent) }
        if color.has_chrm != 0 {
            let c = withUnsafeBytes(of: color.chrm) { Array($0.bindMemory(to: Int32.self)) }.map(fixed)
            typealias Point = CalibratedRGB.Chromaticity
            calibration.primaries = CalibratedRGB.Primaries(
                white: Point(x: c[0], y: c[1]), red: Point(x: c[2], y: c[3]),
                green: Point(x: c[4], y: c[5]), blue: Point(x: c[6], y: c[7]))
        }
    }

    /// The colour space for pixels decoded as `format`: the profile when its model fits (grey
    /// for `gray8`, RGB otherwise; PNG says `iCCP` overrides the other chunks), else what
    /// `sRGB`/`gAMA`/`cHRM` say; `nil` when there are no colour chunks (untagged).
    func colorSpace(for format: PixelFormat) -> ColorSpace? {
        if let profile {
            return profile.colorModel == (format == .gray8 ? .gray : .rgb) ? .icc(profile) : nil
        }
        if calibration == CalibratedRGB() { return nil }
        return format == .gray8 ? .sRGB : calibration.colorSpace
    }
}
#endif
