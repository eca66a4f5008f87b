#if canImport(CoreGraphics)
import CoreGraphics
import Foundation

extension ColorSpace {
    /// The Core Graphics colour space for colour pixels in this space: sRGB, or the one made
    /// from the ICC profile (sRGB when Core Graphics cannot read it). A PNG's `gAMA`/`cHRM`
    /// calibration never reaches here on Apple platforms (ImageIO turns it into a colour space
    /// of its own, which is tagged by its ICC data), so it reads as sRGB.
    var cgColorSpace: CGColorSpace {
        if case .icc(let profile) = self, let space = CGColorSpace(iccData: profile.data as CFData) {
            return space
        }
        return CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB()
    }
}
#endif
