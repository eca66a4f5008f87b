/// The colour space a bitmap's numbers are in: what a red of 255 means.
///
/// Decoders tag what the file says: an embedded ICC profile (JPEG APP2, PNG `iCCP`, WebP
/// `ICCP`), the gamma and primaries of a PNG's `gAMA`/`cHRM` chunks, or nothing, which means
/// sRGB, as it does for every browser. Encoders embed the profile of an ``icc(_:)`` bitmap.
public enum ColorSpace: Sendable, Hashable, CustomStringConvertible {
    /// sRGB (IEC 61966-2-1): untagged images, PNGs with an `sRGB` chunk, converted pixels.
    case sRGB
    /// The space an embedded ICC profile describes (Display P3, Adobe RGB, ProPhoto…).
    case icc(ICCProfile)
    /// A PNG without `iCCP` or `sRGB` whose `gAMA`/`cHRM` chunks describe a space noticeably
    /// different from sRGB (chunks that say about sRGB, such as the common `gAMA` of 1/2.2
    /// alone, are tagged ``sRGB``).
    case calibrated(CalibratedRGB)

    /// Whether the pixels are sRGB already (nothing to convert for display).
    public var isSRGB: Bool {
        if case .sRGB = self { return true }
        return false
    }

    /// The embedded profile, when there is one.
    public var iccProfile: ICCProfile? {
        if case .icc(let profile) = self { return profile }
        return nil
    }

    /// "sRGB", the profile's description, or the PNG chunks'.
    public var description: String {
        switch self {
        case .sRGB: "sRGB"
        case .icc(let profile): "ICC \(profile)"
        case .calibrated(let calibration): "calibrated \(calibration)"
        }
    }
}

extension Bitmap {
    /// The ICC profile an encoder writes with these pixels: the ``ColorSpace/icc(_:)``
    /// profile when its colour model fits the layout (grey for ``PixelFormat/gray8``, RGB for
    /// the others), or for a ``ColorSpace/calibrated(_:)`` colour bitmap one Little CMS builds
    /// from the chunks (where it can be imported); `nil` for sRGB and untagged bitmaps, which
    /// are written untagged (sRGB is what every viewer assumes of an image without a profile).
    public var embeddableICCProfile: ICCProfile? {
        switch colorSpace {
        case .sRGB:
            return nil
        case .icc(let profile):
            return profile.colorModel == (format == .gray8 ? .gray : .rgb) ? profile : nil
        case .calibrated(let calibration):
            #if canImport(CLCMS2)
            return format == .gray8 ? nil : calibration.iccProfile
            #else
            _ = calibration
            return nil
            #endif
        }
    }
}
