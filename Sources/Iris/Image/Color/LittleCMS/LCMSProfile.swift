#if canImport(CLCMS2)
import CLCMS2
import Foundation

/// An open Little CMS profile, closed when released.
final class LCMSProfile {
    let handle: cmsHPROFILE

    private init?(_ handle: cmsHPROFILE?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { cmsCloseProfile(handle) }

    /// The profile an ICC profile's bytes describe; `nil` when Little CMS cannot read them.
    convenience init?(icc profile: ICCProfile) {
        let handle = profile.data.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(bytes.count))
        }
        self.init(handle)
    }

    /// The RGB profile a PNG's `gAMA` and `cHRM` describe (sRGB's primaries when there is no
    /// `cHRM`, a pure power curve of the inverse of the file gamma, 1/2.2 when there is no `gAMA`).
    convenience init?(calibrated: CalibratedRGB) {
        let primaries = calibrated.primaries ?? .sRGB
        let fileGamma = calibrated.gamma ?? 1 / 2.2
        guard fileGamma > 0.01, fileGamma < 100 else { return nil }
        func xyY(_ c: CalibratedRGB.Chromaticity) -> cmsCIExyY { cmsCIExyY(x: c.x, y: c.y, Y: 1) }
        var white = xyY(primaries.white)
        var triple = cmsCIExyYTRIPLE(Red: xyY(primaries.red), Green: xyY(primaries.green), Blue: xyY(primaries.blue))
        guard let curve = cmsBuildGamma(nil, 1 / fileGamma) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        self.init(cmsCreateRGBProfile(&white, &triple, &curves))
    }

    /// Little CMS's built-in sRGB.
    static func sRGB() -> LCMSProfile? { LCMSProfile(cmsCreate_sRGBProfile()) }

    /// Grey with sRGB's tone curve and D65 white: where grey images with a grey profile go.
    static func sRGBGray() -> LCMSProfile? {
        // IEC 61966-2-1: Y = ((V + 0.055) / 1.055)^2.4 above 0.04045, V / 12.92 below.
        var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, &parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        return LCMSProfile(cmsCreateGrayProfile(&white, curve))
    }

    /// The profile's data colour space signature (`cmsSigRgbData`, `cmsSigCmykData`…).
    var colorSpaceSignature: cmsColorSpaceSignature { cmsGetColorSpace(handle) }
}
#endif
