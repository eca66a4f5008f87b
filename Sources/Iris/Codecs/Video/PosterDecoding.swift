import Foundation

/// A video's poster, with the time of the frame chosen, so that a view's player starts on the
/// frame already shown (an image's decoder returns its bitmap alone).
struct DecodedStill: Sendable {
    /// The pixels.
    var bitmap: Bitmap
    /// The seconds into the clip of the frame the poster is (0 for the clip's first frame).
    var posterSeconds: Double = 0
}

/// A decoder whose still is a frame it chose from a clip (a video's poster: its first frame that
/// is not black, or the frame at a time asked for), which says which frame it chose.
protocol PosterDecoding: ImageDecoding {
    /// Decodes the poster at exactly `context.outputSize`, as ``ImageDecoding/decode(_:context:)``.
    func decodePoster(_ data: Data, context: DecodeContext) throws(ImageError) -> DecodedStill
}

/// An animation whose still may be another frame than its first: a video, whose poster is its
/// first frame that is not black, or the frame at a time asked for (``DecodeOptions``).
protocol PosterFrameSource: AnimationFrameSource {
    /// The frame that stands for the animation as a still image, at `frameSize`, when it is not
    /// `first` (frame 0, decoded at that size); `nil` when frame 0 stands for it.
    func posterFrame(frameSize: PixelSize, first: Bitmap, options: DecodeOptions) throws(ImageError) -> DecodedStill?
}
