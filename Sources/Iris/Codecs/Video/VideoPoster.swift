import Foundation

/// Which frame of a video stands for it: the first that is not black (a fade-in or a black
/// leader says nothing about the clip), looked for within the first seconds; the frame at a
/// given time when one is asked for.
public enum VideoPoster: Sendable, Hashable {
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
                    let (r, g, b) =
                        bitmap.format.isBlueFirst
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

extension VideoPoster {
    /// The times, in seconds, that a decoder which seeks (AVFoundation's image generator) looks
    /// at for the poster, in order, within a clip of `duration` seconds: for the first non-black
    /// frame, the start and then every quarter second within ``searchSeconds``; else the time
    /// asked for (the last moment of the clip when that is past its end).
    func seekSeconds(duration: Double?) -> [Double] {
        let end = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        switch self {
        case .firstNonBlack:
            let limit = min(Self.searchSeconds, end ?? Self.searchSeconds)
            return [0] + stride(from: Self.seekStep, to: limit, by: Self.seekStep).map { $0 }
        case .at(let seconds):
            guard let end, seconds >= end else { return [max(0, seconds)] }
            return [max(0, end - Self.seekStep / 5)]
        }
    }

    /// Seconds between two frames looked at when seeking for the first non-black one.
    static let seekStep = 0.25
}
