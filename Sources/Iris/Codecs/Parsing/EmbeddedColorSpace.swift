#if canImport(CPNG)
import CIrisShims
#endif
import Foundation

/// The colour space an animated file declares for all its frames (APNG: `iCCP`, `sRGB`,
/// `gAMA`/`cHRM`; animated WebP: `ICCP`), read without decoding a frame. On Apple platforms
/// ImageIO composes the frames and draws them in sRGB itself, so there is nothing to read.
enum EmbeddedColorSpace {
    /// The declared space of `data` in `format` for colour frames; `nil` when there is none
    /// (untagged, so sRGB) or the format's frames are composed elsewhere.
    static func ofAnimation(_ data: Data, format: ImageFormat) -> ColorSpace? {
        switch format {
        #if canImport(CPNG)
        case .png:
            return try? PNGReader.withReader(data) { reader throws(ImageError) in
                _ = try reader.readInfo()
                return PNGColorChunks(try reader.color()).colorSpace(for: .rgba8)
            }
        #endif
        #if canImport(CWebP)
        case .webp:
            return WebPICCProfile.profile(in: data).flatMap { $0.colorModel == .rgb ? .icc($0) : nil }
        #endif
        default:
            return nil
        }
    }
}
