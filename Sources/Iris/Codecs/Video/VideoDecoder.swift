#if canImport(CFFmpeg)
import CFFmpeg
import Foundation

/// Reads videos (MP4, MOV, WebM, Matroska: H.264, HEVC, VP8, VP9, AV1, whatever the system's
/// FFmpeg decodes) as images: the header gives the size as shown and the frame count, a decode
/// gives the poster (the first frame that is not black, or the frame at a time asked for)
/// scaled by libswscale straight to the target, and the animation source gives every frame.
///
/// Orientation: a phone's rotation metadata (the stream's display matrix) is applied here,
/// once, after scaling; the header reports the size as shown with orientation `.up`, so that
/// nothing turns it again.
///
/// Limits: resolution, duration and frame count are checked from the header before any frame
/// is decoded; every call into FFmpeg stops at ``DecodingLimits/maxDecodingTime``.
struct VideoDecoder: PosterDecoding {
    /// Makes a decoder.
    init() {}

    /// MP4, QuickTime, WebM and Matroska.
    var formats: Set<ImageFormat> { ImageFormat.videoFormats }

    /// Recognises video containers by their first bytes (`ftyp` brands, the EBML header).
    func format(of data: Data) -> ImageFormat? { VideoContainer.format(of: data) }

    /// The shown size and frame count from the container; no frame is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let reader = try Self.open(data, limits: .default)
        let info = reader.info
        let shown = info.shownSize
        var header = ImageHeader(
            format: reader.format, width: shown.width, height: shown.height, hasAlpha: false,
            frameCount: max(1, info.frameCount ?? Self.estimatedFrames(info)))
        header.isAnimated = header.frameCount > 1
        header.isVideo = true
        return header
    }

    /// The poster at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        try decodePoster(data, context: context).bitmap
    }

    /// The poster at exactly `context.outputSize`, with its frame's time.
    func decodePoster(_ data: Data, context: DecodeContext) throws(ImageError) -> DecodedStill {
        let reader = try Self.open(data, limits: context.options.limits)
        try Self.check(reader.info, format: reader.format, limits: context.options.limits)
        return try Self.poster(reader, shownOutput: context.outputSize, choice: context.options.videoPoster)
    }

    /// Every frame, when the video has more than one.
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        let reader = try Self.open(data, limits: limits)
        try Self.check(reader.info, format: reader.format, limits: limits)
        let entries = try reader.indexFrames(maxFrames: limits.maxFrames)
        try limits.check(frames: entries.count)
        guard entries.count > 1 else { return nil }
        return VideoAnimationSource(
            data: data, format: reader.format, info: reader.info, timeBase: reader.timeBase,
            entries: entries, timeLimit: limits.maxDecodingTime)
    }

    static func open(_ data: Data, limits: DecodingLimits) throws(ImageError) -> FFmpegVideoReader {
        guard let format = VideoContainer.format(of: data) else { throw .unsupportedFormat(.unknown) }
        if let declared = VideoContainer.declaredLengthBeyond(data) {
            throw .truncated(format: format, received: data.count, expected: declared)
        }
        let reader = try FFmpegVideoReader(data: data, format: format, timeLimit: limits.maxDecodingTime)
        let size = reader.info.storedSize
        guard size.width > 0, size.height > 0 else {
            throw .invalidDimensions(format: format, width: size.width, height: size.height)
        }
        return reader
    }

    /// Resolution and duration against `limits`, from the header.
    static func check(_ info: VideoInfo, format: ImageFormat, limits: DecodingLimits) throws(ImageError) {
        try limits.check(width: info.storedSize.width, height: info.storedSize.height, format: format)
        if let duration = info.duration { try limits.check(videoSeconds: duration) }
    }

    /// Frames the header implies when the container does not count them (WebM): duration ×
    /// rate.
    static func estimatedFrames(_ info: VideoInfo) -> Int {
        guard let duration = info.duration, let rate = info.frameRate, duration.isFinite, rate.isFinite else { return 1 }
        return max(1, Int((duration * rate).rounded()))
    }

    /// The poster frame at `shownOutput` (turned upright): the first non-black frame within the
    /// search window, or the one shown at a time.
    /// The chosen frame comes with its own time.
    static func poster(
        _ reader: FFmpegVideoReader, shownOutput: PixelSize, choice: VideoPoster
    ) throws(ImageError) -> DecodedStill {
        let orientation = reader.info.orientation
        let storedOutput = orientation.swapsDimensions ? shownOutput.transposed : shownOutput
        var chosen: Bitmap?
        var chosenSeconds = 0.0  // the first frame's, if all are black
        switch choice {
        case .firstNonBlack:
            // The first frames, one at a time: each comes out as soon as it is decoded.
            reader.threading = .slices
            // Most clips do not start black: their first frame is decoded alone. Otherwise the
            // frames from the start are looked at in order.
            if try reader.decodeFirstFrame() {
                let first = try reader.scaledFrame(to: storedOutput)
                chosen = first  // the first frame, if all are black
                if !VideoPoster.isBlack(first) {
                    chosenSeconds = reader.frameSeconds ?? 0
                    break
                }
            }
            do {
                try reader.seek(toSeconds: 0)
            } catch {
                // A stream that cannot go back to its start keeps its first frame, black or not.
                guard chosen != nil else { throw error }
                break
            }
            var looked = 0
            while try reader.decodeNextFrame() {
                let bitmap = try reader.scaledFrame(to: storedOutput)
                if chosen == nil { chosen = bitmap }  // the first frame, if all are black
                looked += 1
                if !VideoPoster.isBlack(bitmap) {
                    chosen = bitmap
                    chosenSeconds = reader.frameSeconds ?? 0
                    break
                }
                if looked >= VideoPoster.searchFrames || (reader.frameSeconds ?? 0) >= VideoPoster.searchSeconds { break }
            }
        case .at(let seconds):
            try reader.seek(toSeconds: seconds)
            // Decode from the key frame before `seconds` to the first frame at or after it (as
            // `ffmpeg -ss` picks; the last frame, past the end), scaling only that frame.
            // The poster's time is the chosen frame's own, not the one asked for.
            var heldSeconds: Double?
            while try reader.decodeNextFrame() {
                guard let time = reader.frameSeconds, time < seconds - 1e-6 else {
                    chosen = try reader.scaledFrame(to: storedOutput)
                    chosenSeconds = reader.frameSeconds ?? seconds
                    break
                }
                reader.holdFrame()
                heldSeconds = time
            }
            if chosen == nil, let heldSeconds {
                chosen = try reader.scaledFrame(to: storedOutput, held: true)
                chosenSeconds = heldSeconds
            }
        }
        guard let chosen else { throw reader.noFrameError() }
        return DecodedStill(bitmap: orientation == .up ? chosen : chosen.oriented(orientation), posterSeconds: chosenSeconds)
    }
}

extension FFmpegVideoReader {
    /// The error for a stream that gave no frame at all.
    func noFrameError() -> ImageError {
        .decodingFailed(format: format, reason: "the \(info.codecName) stream has no decodable frame")
    }
}
#endif
