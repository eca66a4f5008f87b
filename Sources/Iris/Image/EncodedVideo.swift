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

    /// A video of `format` in `data`.
    public init(data: Data, format: ImageFormat) {
        self.data = data
        self.format = format
    }
}
