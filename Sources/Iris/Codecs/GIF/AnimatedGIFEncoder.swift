#if canImport(CGIF)
import Foundation

/// Encodes an ``Animation`` as an animated GIF with giflib: every frame with its duration, and
/// the loop count.
///
/// Frames are pulled from the animation one at a time, reduced to their own palette
/// (``GIFIndexedImage``) and handed to giflib at once, so a lazy animation is never held whole.
/// Each frame is written whole (the full screen, no difference from the one before), disposed
/// to the background and with a transparent entry in its palette whether or not it has
/// transparent pixels: browsers clear a disposed frame to transparent, but other decoders
/// (FFmpeg's) clear it to the screen's background colour unless the frame names a transparent
/// index, and then a transparent pixel of the next frame would show that colour. So every
/// decoder shows a transparent pixel as transparent, at the cost of one colour a frame. Delays
/// are stored in hundredths of a second as ``Animation/displayDuration(at:)`` plays them, at
/// least 2 (20 ms: browsers play 0 and 1 as 100 ms). The loop count is written as the
/// Netscape extension GIF players read: forever (0) as 0, `n` plays as `n - 1` repeats, one
/// play as no extension. ``EncodeOptions`` are ignored.
struct AnimatedGIFEncoder: AnimationEncoding {
    /// Makes an encoder.
    init() {}

    /// GIF.
    var format: ImageFormat { .gif }

    /// The animated GIF of `animation`.
    func encode(_ animation: Animation, options: EncodeOptions) async throws(ImageError) -> Data {
        guard animation.frameCount > 0 else { throw .encodingFailed(format: .gif, reason: "the animation has no frames") }
        let first = try GIFIndexedImage(try await animation.frame(at: 0), reservingTransparency: true)
        let writer = try GIFWriter(size: first.size, firstFrame: first, netscapeLoops: Self.netscapeLoops(animation.loopCount))
        for index in 0..<animation.frameCount {
            if index > 0, Task.isCancelled { throw .cancelled }
            let frame = index == 0 ? first : try GIFIndexedImage(try await animation.frame(at: index), reservingTransparency: true)
            try writer.add(frame, delayCentiseconds: Self.centiseconds(animation.displayDuration(at: index)), disposal: .background)
        }
        return try writer.finish()
    }

    /// The Netscape extension's count for an animation that plays `loopCount` times (0:
    /// forever); `nil` for one play (no extension).
    static func netscapeLoops(_ loopCount: Int) -> Int? {
        switch loopCount {
        case ...0: 0
        case 1: nil
        default: min(loopCount - 1, 65535)
        }
    }

    /// `seconds` in hundredths, at least 2.
    static func centiseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 2 }
        return Int(min(max((seconds * 100).rounded(), 2), 65535))
    }
}
#endif
