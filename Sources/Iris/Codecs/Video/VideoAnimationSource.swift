#if canImport(CFFmpeg)
import Foundation

/// A video's frames as an animation: frame times, durations and key frames from a walk over
/// its packets (no frame decoded), frames decoded by FFmpeg in order and scaled straight to the
/// frame size, turned upright. A video has no canvas to compose: each frame is a whole picture.
struct VideoAnimationSource: PosterFrameSource {
    let data: Data
    let format: ImageFormat
    let info: VideoInfo
    let timeBase: Double
    /// One entry per frame, in presentation order.
    let entries: [VideoFrameEntry]
    let timeLimit: Duration?

    /// Frames as shown (upright).
    var canvas: PixelSize { info.shownSize }
    var frameCount: Int { entries.count }
    /// Short clips loop, as NukeUI and browsers play muted videos.
    var loopCount: Int { 0 }
    var encodedByteCount: Int { data.count }
    /// FFmpeg's reference frames (a few YUV pictures at the stored size, ~1.5 bytes a pixel).
    var maximumWorkingBytes: Int { info.storedSize.pixelCount * 6 }

    /// Seconds frame `index` is shown: to the next frame's time, else its packet's duration,
    /// else one frame at the stream's rate.
    func duration(at index: Int) -> Double {
        guard entries.indices.contains(index) else { return 0 }
        if index + 1 < entries.count {
            let gap = Double(entries[index + 1].timestamp - entries[index].timestamp) * timeBase
            if gap > 0 { return gap }
        }
        if entries[index].duration > 0 { return Double(entries[index].duration) * timeBase }
        return info.frameRate.map { 1 / $0 } ?? 0.1
    }

    func keyFrame(atOrBefore index: Int) -> Int {
        guard !entries.isEmpty else { return 0 }
        var key = min(max(index, 0), entries.count - 1)
        while key > 0 && !entries[key].isKey { key -= 1 }
        return key
    }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        try VideoFrameDecoder(source: self, frameSize: frameSize)
    }

    /// The first frame that is not black (or the frame at the time asked for), when it is not
    /// frame 0.
    func posterFrame(frameSize: PixelSize, first: Bitmap, options: DecodeOptions) throws(ImageError) -> DecodedStill? {
        if options.videoPoster == .firstNonBlack && !VideoPoster.isBlack(first) { return nil }
        let reader = try FFmpegVideoReader(data: data, format: format, timeLimit: timeLimit)
        return try VideoDecoder.poster(reader, shownOutput: frameSize, choice: options.videoPoster)
    }

    /// The seconds from the stream's start at which frame `index` is shown.
    func seconds(at index: Int) -> Double {
        guard entries.indices.contains(index) else { return 0 }
        return Double(entries[index].timestamp - entries[0].timestamp) * timeBase
    }
}

/// One pass through a video's frames: an FFmpeg decoder over the video's bytes.
final class VideoFrameDecoder: AnimationFrameDecoder {
    private let source: VideoAnimationSource
    private let frameSize: PixelSize
    private var reader: FFmpegVideoReader
    private(set) var nextIndex = 0

    init(source: VideoAnimationSource, frameSize: PixelSize) throws(ImageError) {
        self.source = source
        self.frameSize = frameSize
        reader = try FFmpegVideoReader(data: source.data, format: source.format, timeLimit: source.timeLimit)
    }

    var workingBytes: Int { source.maximumWorkingBytes }

    func nextFrame() throws(ImageError) -> Bitmap {
        let index = nextIndex
        guard index < source.frameCount else {
            throw .decodingFailed(format: source.format, reason: "no frame after the last (\(source.frameCount))")
        }
        // The time limit is for each frame: a clip plays for longer than any one decode may take.
        reader.restartTimeLimit()
        guard try reader.decodeNextFrame() else {
            throw .decodingFailed(
                format: source.format,
                reason: "the stream ended at frame \(index) of the \(source.frameCount) its packets promised")
        }
        let orientation = source.info.orientation
        let stored = orientation.swapsDimensions ? frameSize.transposed : frameSize
        let bitmap = try reader.scaledFrame(to: stored)
        nextIndex = index + 1
        return orientation == .up ? bitmap : bitmap.oriented(orientation)
    }

    /// Starts again from the key frame at or before `index`: from the start for frame 0 (a
    /// fresh decoder, the cheapest exact rewind), else a seek to the key frame's time.
    func rewind(toKeyFrameAtOrBefore index: Int) {
        let key = source.keyFrame(atOrBefore: index)
        guard key != nextIndex else { return }
        if key == 0, let fresh = try? FFmpegVideoReader(data: source.data, format: source.format, timeLimit: source.timeLimit) {
            reader = fresh
            nextIndex = 0
            return
        }
        do {
            try reader.seek(toSeconds: source.seconds(at: key))
            nextIndex = key
        } catch {
            // Seeking failed: decode on from where we are (still at most `index` frames in).
            if nextIndex > index, let fresh = try? FFmpegVideoReader(data: source.data, format: source.format, timeLimit: source.timeLimit)
            {
                reader = fresh
                nextIndex = 0
            }
        }
    }
}
#endif
