/// An animation whose still may be another frame than its first: a video, whose poster is its
/// first frame that is not black, or the frame at a time asked for (``DecodeOptions``).
package protocol PosterFrameSource: AnimationFrameSource {
    /// The frame that stands for the animation as a still image, at `frameSize`, when it is not
    /// `first` (frame 0, decoded at that size); `nil` when frame 0 stands for it.
    func posterFrame(frameSize: PixelSize, first: Bitmap, options: DecodeOptions) throws(ImageError) -> Bitmap?
}
