/// The frames of an animated image and how long each is shown.
///
/// Decoded animations (GIF, APNG, animated WebP) are lazy: the encoded data is kept and frames
/// are composed on demand, at ``frameSize``, off the caller's executor. A small animation (a
/// sticker, an emoji) whose every frame fits ``keptFramesBudget`` keeps each frame once it is
/// composed, so its later loops decode nothing; a larger one keeps a window of
/// ``defaultBufferFrames`` decoded ahead, so its memory does not grow with the number of frames
/// (a 2,000-frame GIF plays in the memory of a 20-frame one). Playing in order is cheap; going
/// back restarts the composition at the nearest key frame.
///
/// ```swift
/// if let animation = image.animation {
///     let second = try await animation.frame(at: 1)
///     let shownFor = animation.duration(at: 1)
/// }
/// ```
public final class Animation: Sendable {
    /// How many frames the default buffer holds, at ``frameSize``: the frame on show and two
    /// decoded ahead.
    public static let defaultBufferFrames = 3

    /// The most bytes of frames (at ``frameSize``, 4 bytes a pixel) an animation keeps when it
    /// keeps all of them, unless its decode says otherwise
    /// (``DecodeOptions/animationBufferBytes``): 4 MiB, a 128 × 128 sticker of 64 frames. The
    /// memory cache charges what is kept (``costLimit``).
    public static let keptFramesBudget = 4 << 20

    /// Number of frames.
    public let frameCount: Int
    /// Times the animation plays; 0 means forever. (A GIF's Netscape loop count of `n` repeats
    /// after the first play, so it plays `n + 1` times; without one it plays once.)
    public let loopCount: Int
    /// Size of the frames ``frame(at:)`` produces: the decode's target size.
    public let frameSize: PixelSize

    /// Where the frames are: in memory, or composed on demand (read by the processors that
    /// make a processed animation of this one, `Animation+Processing.swift`).
    let storage: Storage

    /// Frames in memory, or a buffer that composes them on demand.
    enum Storage: Sendable {
        case frames([Bitmap], durations: [Double])
        case lazy(AnimationFrameBuffer)
    }

    /// An animation of frames already in memory, each shown for its duration in seconds.
    /// Missing durations count as 0 (shown for 100 ms, see ``displayDuration(at:)``).
    public init(frames: [Bitmap], durations: [Double], loopCount: Int = 0) {
        frameCount = frames.count
        self.loopCount = loopCount
        frameSize = frames.first?.size ?? PixelSize(width: 0, height: 0)
        storage = .frames(frames, durations: durations)
    }

    /// An animation whose frames `source` composes on demand at `frameSize`, keeping at most
    /// `bufferBytes` of frames (at least one frame; `nil`: every frame when they fit
    /// ``keptFramesBudget``, else ``defaultBufferFrames`` frames). `first`, when given, is
    /// frame 0 already made.
    init(
        source: any AnimationFrameSource, frameSize: PixelSize, kernel: ResamplingKernel = .lanczos3,
        bufferBytes: Int? = nil, first: Bitmap? = nil
    ) {
        frameCount = source.frameCount
        loopCount = source.loopCount
        self.frameSize = frameSize
        let frameBytes = max(1, frameSize.pixelCount * 4)
        let capacity: Int
        if let bufferBytes {
            capacity = max(1, bufferBytes / frameBytes)
        } else {
            // Every frame when they fit the budget as the memory cache charges them (rows padded).
            let keptBytes = max(1, AnimationFrameBuffer.frameBytes(frameSize))
            capacity = source.frameCount <= Self.keptFramesBudget / keptBytes ? source.frameCount : Self.defaultBufferFrames
        }
        storage = .lazy(
            AnimationFrameBuffer(
                source: source, frameSize: frameSize, kernel: kernel,
                capacity: capacity, first: first))
    }

    /// How long frame `index` is shown, in seconds, as stored in the file (0 for an index out
    /// of range).
    public func duration(at index: Int) -> Double {
        switch storage {
        case let .frames(_, durations):
            return durations.indices.contains(index) ? durations[index] : 0
        case let .lazy(buffer):
            return (0..<frameCount).contains(index) ? buffer.source.duration(at: index) : 0
        }
    }

    /// Whether frames are being composed ahead right now (never for in-memory frames): the
    /// buffer has settled once this is false.
    var isReadingAhead: Bool {
        if case let .lazy(buffer) = storage { return buffer.isWorking }
        return false
    }

    /// The composed frame `index` (in `0..<frameCount`) at ``frameSize``.
    ///
    /// In order it is usually ready (decoded ahead); going back restarts the composition at the
    /// nearest key frame. Throws ``ImageError/cancelled`` when the calling task is cancelled
    /// while waiting, or the decoding error of a frame that is broken.
    public func frame(at index: Int) async throws(ImageError) -> Bitmap {
        precondition((0..<frameCount).contains(index), "frame \(index) is outside 0..<\(frameCount)")
        switch storage {
        case let .frames(frames, _):
            return frames[index]
        case let .lazy(buffer):
            return try await buffer.frame(at: index)
        }
    }

    /// Most bytes the animation can hold while it plays: a full buffer of frames, one
    /// composition canvas (and a region saved for "previous" disposal) and the encoded data; for
    /// an animation of frames in memory, those frames. This is what ``LoadedImage/cost`` and so
    /// the memory cache count: it does not change as frames are decoded ahead, so a cache's
    /// total stays true after the image is stored.
    public var costLimit: Int {
        switch storage {
        case let .frames(frames, _):
            return frames.reduce(0) { $0 + $1.cost }
        case let .lazy(buffer):
            return buffer.costLimit
        }
    }

    /// Bytes of ``costLimit`` that are the encoded file a lazy animation reads its frames from
    /// (the same bytes as the image's kept data or video); 0 for frames in memory.
    var encodedByteCount: Int {
        switch storage {
        case .frames: 0
        case let .lazy(buffer): buffer.source.encodedByteCount
        }
    }

    /// Bytes of ``costLimit`` that are `bitmap` itself: an animation of frames in memory whose
    /// frame 0 shares `bitmap`'s storage; 0 otherwise.
    func sharedFirstFrameBytes(with bitmap: Bitmap) -> Int {
        guard case let .frames(frames, _) = storage, let first = frames.first, first.sharesStorage(with: bitmap) else { return 0 }
        return first.cost
    }

    /// Bytes held now: buffered frames, the composition canvas while one is in use, and the
    /// encoded data. It changes as frames are decoded ahead, never past ``costLimit``.
    public var cost: Int {
        switch storage {
        case let .frames(frames, _):
            return frames.reduce(0) { $0 + $1.cost }
        case let .lazy(buffer):
            return buffer.cost
        }
    }
}
