import Foundation

/// Picks the lazy frame source for an animated file: Iris's own composition over the C
/// libraries, or ImageIO's on Apple platforms.
enum AnimationSources {
    /// The frame source for `data` in `format`, when this platform composes that format's
    /// animations; `nil` otherwise. Checks `limits` (frames, frame sizes) while walking.
    static func source(for data: Data, format: ImageFormat, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        switch format {
        #if canImport(CGIF)
        case .gif: return try GIFFrameReader.source(data, limits: limits)
        #endif
        #if canImport(CPNG)
        case .png: return try APNGFrameReader.source(data, limits: limits)
        #endif
        #if canImport(CWebP)
        case .webp: return try WebPFrameReader.source(data, limits: limits)
        #endif
        #if canImport(CAVIF)
        case .avif: return try AVIFAnimationSource.source(data, limits: limits)
        #endif
        #if !canImport(CJPEG) && canImport(ImageIO)
        case .gif, .png, .webp: return try ImageIOAnimationSource.source(data, format: format, limits: limits)
        #endif
        default: return nil
        }
    }
}
