import Foundation

/// Which frame of a video stands for it: the first that is not black (a fade-in or a black
/// leader says nothing about the clip), looked for within the first seconds; the frame at a
/// given time when one is asked for.
package enum VideoPoster: Sendable, Hashable {
    /// The first frame that is not black, within ``searchSeconds`` (else the first frame).
    case firstNonBlack
    /// The first frame at or after this many seconds from the start, as `ffmpeg -ss` picks (the
    /// last one, past the end).
    case at(seconds: Double)

    /// How far into a clip the first non-black frame is looked for.
    static let searchSeconds = 5.0
    /// Most frames looked at for it, whatever the frame rate.
    static let searchFrames = 150

    /// Whether `bitmap` is black: at most 2 % of a sample of its pixels brighter than a dark
    /// grey (luma 32 of 255). Opaque RGBX or RGBA pixels.
    static func isBlack(_ bitmap: Bitmap) -> Bool {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.format.bytesPerPixel == 4 else { return false }
        let step = max(1, Int((Double(bitmap.width * bitmap.height) / 4096).squareRoot()))
        var sampled = 0
        var bright = 0
        bitmap.withUnsafeBytes { bytes in
            var y = step / 2
            while y < bitmap.height {
                var x = step / 2
                while x < bitmap.width {
                    let offset = y * bitmap.bytesPerRow + x * 4
                    let (r, g, b) = bitmap.format.isBlueFirst
                        ? (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
                        : (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
                    if (r * 54 + g * 183 + b * 19) >> 8 > 32 { bright += 1 }
                    sampled += 1
                    x += step
                }
                y += step
            }
        }
        return bright * 50 <= sampled
    }
}
