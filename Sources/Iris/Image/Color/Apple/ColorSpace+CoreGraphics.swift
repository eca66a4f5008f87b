#if canImport(CoreGraphics)
import CoreGraphics
import Foundation

extension ColorSpace {
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
