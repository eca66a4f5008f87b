#if !canImport(CFFmpeg) && canImport(AVFoundation) && !os(watchOS)
import AVFoundation
import CoreGraphics
import Foundation

/// Reads MP4 and QuickTime videos with AVFoundation (Apple platforms) as images: the header
/// from the asset's video track (size as shown, duration, frame rate), the poster from an image
/// generator (the first frame that is not black within the first seconds, or the frame at a
/// time), turned upright by the track's transform and drawn at the target size. The clip
/// itself goes with the poster (``LoadedImage/video``): IrisUI's views play it. WebM and
/// Matroska, which AVFoundation cannot play, fail with an error that says so.
///
/// Threads: AVFoundation reads video only asynchronously (its synchronous calls are
/// deprecated), so this is an ``AsyncImageDecoding``: the pipeline awaits it, holding no thread,
/// within ``DecodingLimits/maxDecodingTime``. The synchronous ``ImageDecoding`` calls (a direct
/// ``ImageDecoderRegistry/decode(_:options:)``) would have to block a thread to wait; they throw
/// an error that says to load the video through ``ImagePipeline`` instead.
struct AVFoundationVideoDecoder: AsyncImageDecoding {
    /// MP4 and QuickTime (read), WebM and Matroska (recognised, refused).
    var formats: Set<ImageFormat> { ImageFormat.videoFormats }

    /// Recognises video containers by their first bytes (`ftyp` brands, the EBML header).
    func format(of data: Data) -> ImageFormat? { VideoContainer.format(of: data) }

    /// Refuses: AVFoundation reads the header only asynchronously (``asyncHeader(of:)``).
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        throw Self.onlyAsynchronous(try Self.video(in: data).format)
    }

    /// Refuses: AVFoundation makes the poster only asynchronously (``asyncDecode(_:context:)``).
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        throw Self.onlyAsynchronous(context.header.format)
    }

    /// The shown size and an estimate of the frames; no frame is decoded.
    func asyncHeader(of data: Data) async throws(ImageError) -> ImageHeader {
        let video = try Self.video(in: data)
        let track = try await VideoTrackInfo.load(from: try InMemoryVideoAsset(video), format: video.format)
        var header = ImageHeader(
            format: video.format, width: track.width, height: track.height, hasAlpha: false,
            frameCount: track.estimatedFrames)
        header.isAnimated = false  // the views play the clip; no frames are made here
        header.isVideo = true
        return header
    }

    /// The poster at exactly `context.outputSize`.
    func asyncDecode(_ data: Data, context: DecodeContext) async throws(ImageError) -> DecodedStill {
        let video = try Self.video(in: data)
        let options = context.options
        let asset = try InMemoryVideoAsset(video)
        let track = try await VideoTrackInfo.load(from: asset, format: video.format)
        if let duration = track.duration { try options.limits.check(videoSeconds: duration) }
        return try await Self.poster(
            of: asset, format: video.format, output: context.outputSize,
            times: options.videoPoster.seekSeconds(duration: track.duration),
            management: options.colorManagement ?? .platformDefault)
    }

    /// What a synchronous call for a video gets on Apple platforms.
    private static func onlyAsynchronous(_ format: ImageFormat) -> ImageError {
        .decodingFailed(format: format, reason: "AVFoundation reads video only asynchronously: load it through ImagePipeline")
    }

    /// The video in `data`: a format AVFoundation plays, and complete.
    private static func video(in data: Data) throws(ImageError) -> EncodedVideo {
        guard let format = VideoContainer.format(of: data) else { throw .unsupportedFormat(.unknown) }
        try AVFoundationVideoFormats.checkPlayable(format)
        if let declared = VideoContainer.declaredLengthBeyond(data) {
            throw .truncated(format: format, received: data.count, expected: declared)
        }
        return EncodedVideo(data: data, format: format)
    }

    /// The first frame at `times` that is not black (the first one if all are), upright, drawn
    /// at `output`.
    private static func poster(
        of asset: InMemoryVideoAsset, format: ImageFormat, output: PixelSize, times: [Double],
        management: ColorManagement
    ) async throws(ImageError) -> DecodedStill {
        let generator = AVAssetImageGenerator(asset: asset.asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: output.width, height: output.height)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = CMTime(seconds: VideoPoster.seekStep / 2, preferredTimescale: 600)
        var chosen: DecodedStill?  // the first frame, if all are black
        for seconds in times {
            if Task.isCancelled { throw .cancelled }
            let image: CGImage
            // The frame's own time, not the one asked for (the generator returns the frame at or
            // after it, within the tolerance): the player starts on exactly this frame.
            let frameSeconds: Double
            do {
                let frame = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 600))
                image = frame.image
                frameSeconds = frame.actualTime.isNumeric ? frame.actualTime.seconds : seconds
            } catch {
                if chosen != nil { break }  // past the last frame: keep the first
                throw .decodingFailed(format: format, reason: "AVFoundation could not read a frame: \(error.localizedDescription)")
            }
            let (space, tag) = ColorSpace.drawingSpace(for: image.colorSpace, management: management)
            guard
                var bitmap = Bitmap.drawing(
                    image, width: output.width, height: output.height, opaque: true,
                    rowAlignment: 64, space: space)
            else {
                throw .decodingFailed(format: format, reason: "could not create a bitmap context")
            }
            bitmap.colorSpace = tag
            let still = DecodedStill(bitmap: bitmap, posterSeconds: frameSeconds)
            if chosen == nil { chosen = still }
            if !VideoPoster.isBlack(bitmap) { return still }
        }
        guard let chosen else { throw .decodingFailed(format: format, reason: "the video has no frame") }
        return chosen
    }
}

/// What the poster decoder needs of a video track: its size as shown, duration and rate.
private struct VideoTrackInfo: Sendable {
    var width: Int
    var height: Int
    var duration: Double?
    var frameRate: Double?

    /// Frames the duration and rate imply (AVFoundation does not count them without reading).
    var estimatedFrames: Int {
        guard let duration, let frameRate, duration.isFinite, frameRate.isFinite else { return 1 }
        return max(1, Int((duration * frameRate).rounded()))
    }

    /// Loads the first video track's properties.
    static func load(from asset: InMemoryVideoAsset, format: ImageFormat) async throws(ImageError) -> VideoTrackInfo {
        do {
            guard let track = try await asset.asset.loadTracks(withMediaType: .video).first else {
                throw ImageError.decodingFailed(format: format, reason: "the file has no video track")
            }
            let (size, transform, rate) = try await track.load(.naturalSize, .preferredTransform, .nominalFrameRate)
            let duration = try await asset.asset.load(.duration)
            let shown = size.applying(transform)
            let width = Int(abs(shown.width).rounded())
            let height = Int(abs(shown.height).rounded())
            guard width > 0, height > 0 else { throw ImageError.invalidDimensions(format: format, width: width, height: height) }
            return VideoTrackInfo(
                width: width, height: height, duration: duration.isNumeric ? duration.seconds : nil,
                frameRate: rate > 0 ? Double(rate) : nil)
        } catch let error as ImageError {
            throw error
        } catch {
            throw .decodingFailed(format: format, reason: "AVFoundation could not read the video: \(error.localizedDescription)")
        }
    }
}
#endif
