import Foundation

/// What a video's header says: the size of its frames, how they are turned for display, how
/// long it lasts and how many frames it has, where the container says.
public struct VideoInfo: Sendable, Equatable {
    /// The frames' stored size, before ``orientation``.
    public var storedSize: PixelSize
    /// How the stored frames are turned for display (a phone's rotation metadata): `.up`,
    /// `.right` (90° clockwise), `.down` or `.left`.
    public var orientation: Orientation
    /// Seconds, when known.
    public var duration: Double?
    /// Frames per second (the stream's average), when known.
    public var frameRate: Double?
    /// Frames, as the container counts them, when it does.
    public var frameCount: Int?
    /// The codec's short name ("h264", "hevc", "vp9", "av1").
    public var codecName: String
    /// The stream's first timestamp (its time base), from which frame times count.
    var startTimestamp: Int64 = 0

    /// What the header of the video `data` says; `nil` when `data` is not a video, or this
    /// platform has no video decoder of its own (Apple platforms play videos with AVFoundation).
    public static func of(_ data: Data) throws(ImageError) -> VideoInfo? {
        guard VideoContainer.format(of: data) != nil else { return nil }
        #if canImport(CFFmpeg)
        return try VideoDecoder.open(data, limits: .default).info
        #else
        return nil
        #endif
    }

    /// The size as shown: width and height exchanged for a quarter turn.
    public var shownSize: PixelSize { orientation.swapsDimensions ? storedSize.transposed : storedSize }

    /// The orientation that shows frames stored under a display matrix rotated by `degrees`
    /// counter-clockwise (FFmpeg's sign: a phone held upright records -90).
    static func orientation(displayRotation degrees: Double) -> Orientation {
        guard degrees.isFinite else { return .up }
        // Clockwise quarter turns that bring the stored frame upright.
        let turns = ((Int((-degrees / 90).rounded()) % 4) + 4) % 4
        return [Orientation.up, .right, .down, .left][turns]
    }
}
