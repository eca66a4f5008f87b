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
    /// bitmap is then tagged (``DrawingSpaceChoice`` decides).
    static func drawingSpace(for source: CGColorSpace?, management: ColorManagement) -> (space: CGColorSpace, tag: ColorSpace) {
        let described = source.map {
            DrawingSpaceChoice.Source(
                isRGB: $0.model == .rgb, supportsOutput: $0.supportsOutput,
                isSRGB: ($0.name as String?) == (CGColorSpace.sRGB as String),
                iccData: $0.copyICCData() as Data?)
        }
        guard let source, let profile = DrawingSpaceChoice.profile(for: described, management: management) else {
            return (ColorSpace.sRGB.cgColorSpace, .sRGB)
        }
        return (source, .icc(profile))
    }
}
#endif
