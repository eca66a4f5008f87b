import Foundation

/// Where the ImageIO decoder (Apple platforms) draws a decoded image, decided from what Core
/// Graphics says of the image's own colour space; platform-neutral, so it is tested on Linux.
///
/// The image is drawn in its own space, and tagged with its profile, only when the source's
/// space is kept (``ColorManagement/keepSource``, the Apple default) and is an RGB space Core
/// Graphics can draw into that is not sRGB and carries a readable ICC profile: Display P3 stays
/// P3. Everything else (grey, CMYK, indexed and Lab sources, untagged or sRGB images,
/// ``ColorManagement/convertToSRGB``) is drawn in sRGB.
enum DrawingSpaceChoice {
    /// An image's own colour space, as Core Graphics describes it.
    struct Source: Sendable {
        /// Whether its model is RGB.
        var isRGB: Bool
        /// Whether Core Graphics can draw into it.
        var supportsOutput: Bool
        /// Whether it is sRGB itself.
        var isSRGB: Bool
        /// Its ICC profile, when Core Graphics gives one.
        var iccData: Data?
    }

    /// The profile to draw in and tag the bitmap with, or `nil` for sRGB.
    static func profile(for source: Source?, management: ColorManagement) -> ICCProfile? {
        guard management == .keepSource, let source, source.isRGB, source.supportsOutput, !source.isSRGB,
            let data = source.iccData
        else { return nil }
        return ICCProfile(data: data)
    }
}
