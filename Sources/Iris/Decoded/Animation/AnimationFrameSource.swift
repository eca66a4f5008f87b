/// Where a lazy ``Animation`` gets its frames: what the file says about the animation, and
/// decoders that compose its frames one after another.
///
/// A source is immutable and shared; each ``AnimationFrameDecoder`` it makes holds the working
/// state (the canvas) of one pass through the frames.
public protocol AnimationFrameSource: Sendable {
    /// The full size of the animation's frames before shrinking (a GIF's logical screen, an
    /// APNG's or animated WebP's canvas).
    var canvas: PixelSize { get }
    /// Frames the animation has (the complete ones, when the data ends early).
    var frameCount: Int { get }
    /// Times the animation plays; 0 means forever.
    var loopCount: Int { get }
    /// How long frame `index` is shown, in seconds, as stored in the file.
    func duration(at index: Int) -> Double
    /// The nearest frame at or before `index` that does not depend on the frames before it:
    /// frame 0, or one whose composition starts from a blank canvas.
    func keyFrame(atOrBefore index: Int) -> Int
    /// Bytes of encoded data the source keeps.
    var encodedByteCount: Int { get }
    /// Most bytes one of its decoders holds between frames (a canvas, and the region a frame
    /// disposed to "previous" saved).
    var maximumWorkingBytes: Int { get }
    /// The colour space the file declares for all its frames (an APNG's `iCCP`, `sRGB` or
    /// `gAMA`/`cHRM`, an animated WebP's `ICCP`); `nil` (the default) when untagged (sRGB) or when
    /// the frames come already drawn in their space.
    var declaredColorSpace: ColorSpace? { get }
    /// A decoder that produces composed frames at `frameSize`, starting at frame 0.
    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder
}

extension AnimationFrameSource {
    /// Untagged: the frames are sRGB.
    public var declaredColorSpace: ColorSpace? { nil }

}

/// Composes an animation's frames in order; it can go back to a key frame.
///
/// Used by one task at a time (it is not thread-safe).
public protocol AnimationFrameDecoder: AnyObject {
    /// The frame ``nextFrame()`` produces.
    var nextIndex: Int { get }
    /// Bytes the decoder holds between frames (canvas, saved regions).
    var workingBytes: Int { get }
    /// Composes frame ``nextIndex`` and returns it at the frame size, then moves on by one.
    func nextFrame() throws(ImageError) -> Bitmap
    /// Goes back to the nearest key frame at or before `index` (frame 0, or a frame that does
    /// not depend on the ones before it), so that ``nextIndex`` is at most `index`.
    func rewind(toKeyFrameAtOrBefore index: Int)
}
