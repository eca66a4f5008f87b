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

    /// Where an image whose own space is `source` is drawn for `management`, and how the
    /// bitmap is then tagged: in its own space (Display P3 stays P3) when the source's space
    /// is kept and is an RGB space Core Graphics can draw into; in sRGB otherwise (grey, CMYK,
    /// indexed and Lab sources, untagged images, or ``ColorManagement/convertToSRGB``).
    static func drawingSpace(for source: CGColorSpace?, management: ColorManagement) -> (space: CGColorSpace, tag: ColorSpace) {
        let sRGB = ColorSpace.sRGB
        guard management == .keepSource, let source, source.model == .rgb, source.supportsOutput,
              (source.name as String?) != (CGColorSpace.sRGB as String),
              let data = source.copyICCData() as Data?, let profile = ICCProfile(data: data) else {
            return (sRGB.cgColorSpace, sRGB)
        }
        return (source, .icc(profile))
    }
}
#endif
