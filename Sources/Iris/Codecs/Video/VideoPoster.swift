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
    package func seekSeconds(duration: Double?) -> [Double] {
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

/// The time of the poster a video decoder chose, written by the decoder and read by the registry
/// that keeps the clip beside its poster (``EncodedVideo/posterSeconds``), so a view's player
/// starts at the frame already shown. Carried in ``DecodeOptions`` without taking part in its
/// equality: it is where a result goes, not what is asked.
package struct VideoPosterTime: Sendable, Hashable {
    private let box: LockedState<Double>?

    private init(box: LockedState<Double>?) { self.box = box }

    /// Nowhere to write (a decode that is not a video's).
    package static let none = VideoPosterTime(box: nil)

    /// A new place to write a poster's time, 0 until written.
    package static func recording() -> VideoPosterTime { VideoPosterTime(box: LockedState(0)) }

    /// The time written, in seconds (0 when none was).
    package var seconds: Double {
        get { box?.withLock { $0 } ?? 0 }
        nonmutating set { box?.withLock { $0 = newValue } }
    }

    package static func == (lhs: VideoPosterTime, rhs: VideoPosterTime) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
