import Foundation

/// The encoded bytes of a video loaded as an image (``ImageFormat/videoFormats``), kept with its
/// poster (``LoadedImage/video``) so that a view can play the clip from memory: no second
/// download, no disk read.
public struct EncodedVideo: Sendable {
    /// The container's bytes, exactly as loaded (shared with the pipeline's copy, not copied).
    public var data: Data
    /// The container format (``ImageFormat/mp4``, ``ImageFormat/quickTime``, ``ImageFormat/webm``,
    /// ``ImageFormat/matroska``).
    public var format: ImageFormat
    /// The time of the poster's frame, in seconds from the start: where a player that replaces
    /// the poster starts, so that it goes on from the frame already shown (0 unless the decoder
    /// chose a later frame: the first that is not black, or a time asked for).
    public var posterSeconds: Double

    /// A video of `format` in `data` whose poster is the frame at `posterSeconds`.
    public init(data: Data, format: ImageFormat, posterSeconds: Double = 0) {
        self.data = data
        self.format = format
        self.posterSeconds = posterSeconds.isFinite ? max(0, posterSeconds) : 0
    }
}
