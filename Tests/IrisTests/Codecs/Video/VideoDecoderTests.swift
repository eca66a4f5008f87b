#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

/// Videos through FFmpeg: clips made by Debian's ffmpeg (H.264 and HEVC in MP4 and MOV, VP9 and
/// AV1 in WebM, a phone-style rotated clip, one that starts black, one with no video), their
/// headers against ffprobe, posters and frames against ffmpeg's own frames scaled by the same
/// libswscale, limits, and the truncated and corrupt files.
@Suite("Video decoding (FFmpeg)", .enabled(if: CodecTools.hasFFmpeg, CodecTools.missingFFmpeg))
struct VideoDecoderTests {
    static let codecClips: [VideoClips.Kind] = [.h264MP4, .h264MOV, .hevcMP4, .hevcMOV, .vp9WebM, .av1WebM]

    @Test("the header says what ffprobe says: size, frames, duration, rate", arguments: codecClips + [.rotatedMP4])
    func headerMatchesFFprobe(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        let probe = try await VideoClips.shared.probe(kind)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        let expectedFormat: ImageFormat = kind.rawValue.hasSuffix(".mov") ? .quickTime : kind.rawValue.hasSuffix(".webm") ? .webm : .mp4
        #expect(header.format == expectedFormat)
        let turned = probe.rotation % 180 != 0
        #expect(
            header.width == (turned ? probe.height : probe.width) && header.height == (turned ? probe.width : probe.height),
            "\(kind): \(header.width)×\(header.height), ffprobe \(probe.width)×\(probe.height) rotation \(probe.rotation)")
        #expect(header.orientation == .up, "the decoder turns frames itself")
        #expect(
            header.frameCount == probe.frames && header.isAnimated, "\(kind): \(header.frameCount) frames, ffprobe counts \(probe.frames)")
        let info = try #require(try VideoInfo.of(data))
        #expect(abs((info.duration ?? 0) - probe.duration) < 0.05, "\(kind): \(info.duration ?? -1) s, ffprobe \(probe.duration) s")
        #expect(abs((info.frameRate ?? 0) - probe.frameRate) < 0.01, "\(kind): \(info.frameRate ?? -1) fps, ffprobe \(probe.frameRate)")
    }

    @Test("the poster at a time is ffmpeg -ss's frame, scaled straight to the target", arguments: codecClips)
    func posterAtTimeMatchesFFmpeg(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        let probe = try await VideoClips.shared.probe(kind)
        let time = (probe.duration * 0.55 * 100).rounded() / 100
        let (width, height) = (probe.width / 2, probe.height / 2)
        var registry = ImageDecoderRegistry.standard
        registry.videoPoster = .at(seconds: time)
        let poster = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: width, height: height))).bitmap
        let reference = try await VideoClips.shared.referenceFrame(kind, width: width, height: height, at: time)
        #expect(poster.size == reference.size, "\(kind): \(poster.size) vs \(reference.size)")
        let mean = CodecTools.meanDifference(poster, reference)
        #expect(mean < 1.5, "\(kind) at \(time) s: mean difference \(mean) levels")
    }

    @Test("a poster at a time records its frame's own time, not the time asked for (between frames, past the end)")
    func posterAtTimeRecordsFrameTime() async throws {
        let data = try await VideoClips.shared.data(.h264MP4)  // 25 fps, 2 s: frames every 0.04 s, the last at 1.96 s
        for (asked, frame) in [(0.43, 0.44), (0.401, 0.44), (9.0, 1.96)] {
            var registry = ImageDecoderRegistry.standard
            registry.videoPoster = .at(seconds: asked)
            registry.decodesAnimations = false
            let seconds = try #require(try registry.decode(data).video?.posterSeconds)
            #expect(abs(seconds - frame) < 0.001, "asked \(asked) s: poster at \(seconds) s, its frame is at \(frame) s")
        }
    }

    @Test("the default poster is frame 0 as ffmpeg decodes it, decoded alone (nothing after it), B-frames or not", arguments: codecClips)
    func posterIsFirstFrameDecodedAlone(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        let probe = try await VideoClips.shared.probe(kind)
        let (width, height) = (probe.width / 2, probe.height / 2)
        let reference = try await VideoClips.shared.referenceFrame(kind, width: width, height: height, index: 0)
        let poster = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: width, height: height)))
        let mean = CodecTools.meanDifference(poster.bitmap, reference)
        #expect(mean < 1.5, "\(kind): the poster differs from frame 0 by \(mean) levels")
        #expect(poster.video?.posterSeconds == 0)
        // The reader decodes the first packet and drains the decoder: frame 0 comes out, and no
        // frame after it was decoded; going back to the start decodes on from frame 0.
        let reader = try VideoDecoder.open(data, limits: .default)
        reader.threading = .slices
        #expect(try reader.decodeFirstFrame())
        #expect(abs(reader.frameSeconds ?? -1) < 0.001, "\(kind): first frame at \(reader.frameSeconds ?? -1) s")
        let alone = try reader.scaledFrame(to: PixelSize(width: width, height: height))
        #expect(CodecTools.meanDifference(alone, reference) < 1.5)
        #expect(try reader.decodeNextFrame() == false, "\(kind): a frame after the first was decoded")
        try reader.seek(toSeconds: 0)
        var frames = 0
        while frames < 3, try reader.decodeNextFrame() { frames += 1 }
        #expect(frames == 3, "\(kind): \(frames) frames after going back to the start")
    }

    @Test("a clip that starts black has its first non-black frame as poster, frame 0 as first frame")
    func posterSkipsBlackLeader() async throws {
        let data = try await VideoClips.shared.data(.blackStartMP4)
        let image = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 160, height: 120)))
        #expect(!VideoPoster.isBlack(image.bitmap))
        // 0.4 s of black at 25 fps: frame 10 is the first of the pattern.
        let reference = try await VideoClips.shared.referenceFrame(.blackStartMP4, width: 160, height: 120, index: 10)
        let mean = CodecTools.meanDifference(image.bitmap, reference)
        #expect(mean < 1.5, "poster differs from frame 10 by \(mean) levels")
        let animation = try #require(image.animation)
        let first = try await animation.frame(at: 0)
        #expect(VideoPoster.isBlack(first), "frame 0 of the animation is the clip's first frame")
        // The clip kept beside the poster says where the poster is: a player starts there.
        let seconds = try #require(image.video?.posterSeconds)
        #expect(abs(seconds - 0.4) < 0.001, "poster at \(seconds) s, not 0.4 s")
        var stills = ImageDecoderRegistry.standard
        stills.decodesAnimations = false
        let still = try stills.decode(data, options: DecodeOptions(target: DecodeTarget(width: 160, height: 120)))
        #expect(abs((still.video?.posterSeconds ?? -1) - 0.4) < 0.001, "a stills-only decode records it too")
        let plain = try await VideoClips.shared.data(.h264MP4)
        #expect(try ImageDecoderRegistry.standard.decode(plain).video?.posterSeconds == 0)  // not black: frame 0
    }

    @Test("a registry that decodes stills only gives the same poster with no animation (no frame walk), as iris thumbnail does")
    func stillsOnlyPoster() async throws {
        let data = try await VideoClips.shared.data(.blackStartMP4)
        let options = DecodeOptions(target: DecodeTarget(width: 160, height: 120))
        let animated = try ImageDecoderRegistry.standard.decode(data, options: options)
        var stills = ImageDecoderRegistry.standard
        stills.decodesAnimations = false
        let still = try stills.decode(data, options: options)
        #expect(still.animation == nil && animated.animation != nil)
        #expect(still.bitmap.size == animated.bitmap.size)
        let mean = CodecTools.meanDifference(still.bitmap, animated.bitmap)
        #expect(mean == 0, "the still poster differs from the animated decode's by \(mean) levels")
        #expect(still.video != nil, "the clip stays beside its poster")
    }

    @Test("a phone's rotation is applied once, as ffmpeg shows it")
    func rotationAppliedOnce() async throws {
        let data = try await VideoClips.shared.data(.rotatedMP4)
        let image = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 120, height: 160)))
        #expect(image.bitmap.size == PixelSize(width: 120, height: 160))
        let reference = try await VideoClips.shared.referenceFrame(.rotatedMP4, width: 120, height: 160, index: 0)
        // ffmpeg turns the YUV planes before it scales; Iris scales, then turns the RGB result
        // (the chroma is interpolated across the other axis): a few levels apart on average.
        let mean = CodecTools.meanDifference(image.bitmap, reference)
        #expect(mean < 4, "rotated poster differs from ffmpeg's by \(mean) levels")
        // The other way round is another picture altogether.
        let wrongWay = CodecTools.meanDifference(image.bitmap, reference.oriented(.down))
        #expect(wrongWay > 20, "turned the wrong way, it would differ by \(wrongWay) levels")
    }

    @Test(
        "frames play in order with the stream's durations, and match ffmpeg's after a rewind",
        arguments: [VideoClips.Kind.h264MP4, .vp9WebM])
    func framesMatchFFmpeg(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        let probe = try await VideoClips.shared.probe(kind)
        let (width, height) = (probe.width / 4, probe.height / 4)
        let image = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: width, height: height)))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == probe.frames)
        let total = (0..<animation.frameCount).reduce(0.0) { $0 + animation.duration(at: $1) }
        #expect(abs(total - probe.duration) < 0.05, "\(kind): frames last \(total) s, ffprobe \(probe.duration) s")
        for index in [37, 3, probe.frames - 1] {  // forward, back (a rewind), to the last
            let frame = try await animation.frame(at: index)
            let reference = try await VideoClips.shared.referenceFrame(kind, width: width, height: height, index: index)
            let mean = CodecTools.meanDifference(frame, reference)
            #expect(mean < 1.5, "\(kind) frame \(index) differs from ffmpeg's by \(mean) levels")
        }
    }

    @Test("a file with no video stream is a typed error that says so")
    func noVideoStream() async throws {
        let data = try await VideoClips.shared.data(.audioOnlyM4A)
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data) }
        guard case .decodingFailed(.mp4, let reason) = error else {
            Issue.record("expected decodingFailed(.mp4, …), got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no video stream"))
    }

    /// FFmpeg reads the bytes with the demuxer of the container Iris recognised, never one its
    /// probe would pick: an FLV or MPEG-TS clip (not recognised, so never handed to FFmpeg by the
    /// registry) is refused even when handed to the reader as an MP4 or a WebM, and a WebM
    /// handed over as an MP4 is refused too.
    @Test(
        "only the four recognised containers' demuxers open: another container is refused", arguments: [VideoClips.Kind.h264FLV, .h264TS])
    func otherContainersAreRefused(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        #expect(VideoContainer.format(of: data) == nil)
        for format in [ImageFormat.mp4, .quickTime, .webm, .matroska] {
            let error = thrownImageError { _ = try FFmpegVideoReader(data: data, format: format, timeLimit: .seconds(20)) }
            #expect(error != nil, "\(kind) opened as \(format)")
        }
        let webm = try await VideoClips.shared.data(.vp9WebM)
        #expect(thrownImageError { _ = try FFmpegVideoReader(data: webm, format: .mp4, timeLimit: .seconds(20)) } != nil)
        #expect(throws: Never.self) { _ = try FFmpegVideoReader(data: webm, format: .webm, timeLimit: .seconds(20)) }
        #expect(FFmpegVideoReader.demuxers == ["mov", "matroska"])
    }

    @Test("a truncated clip says how many bytes it has of how many its structure declares", arguments: [VideoClips.Kind.h264MP4, .vp9WebM])
    func truncated(_ kind: VideoClips.Kind) async throws {
        let data = try await VideoClips.shared.data(kind)
        for fraction in [0.1, 0.5, 0.9] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(cut) }
            guard case .truncated(_, let received, let expected) = error else {
                Issue.record("\(kind) cut at \(fraction): expected truncated, got \(String(describing: error))")
                continue
            }
            // The structure read so far says at least this much (an MP4 cut inside its media data
            // cannot know the index box after it).
            let declared = expected ?? 0
            #expect(received == cut.count && declared > received && declared <= data.count, "\(kind): \(received) of \(declared)")
        }
    }

    @Test("corrupt clips give an image or a typed error, never a crash or a hang")
    func corruptBytes() async throws {
        let data = try await VideoClips.shared.data(.h264MP4)
        var generator = SplitMix(seed: 30)
        var errors = 0, images = 0
        for round in 0..<40 {
            var bytes = [UInt8](data)
            // A run of garbage somewhere past the `ftyp` box (which keeps it a video).
            let start = 32 + Int(generator.next() % UInt64(bytes.count - 64))
            for offset in start..<min(bytes.count, start + 1 + round * 16) { bytes[offset] = UInt8(truncatingIfNeeded: generator.next()) }
            let options = DecodeOptions(target: DecodeTarget(width: 80, height: 60), limits: DecodingLimits(maxDecodingTime: .seconds(20)))
            do throws(ImageError) {
                let image = try ImageDecoderRegistry.standard.decode(Data(bytes), options: options)
                #expect(image.bitmap.size.pixelCount > 0)
                images += 1
            } catch {
                errors += 1
            }
        }
        #expect(errors + images == 40)
    }

    @Test("limits from the header: pixels, duration; over the frame limit, the poster alone; a decode past its time is stopped")
    func limits() async throws {
        let data = try await VideoClips.shared.data(.h264MP4)
        let registry = ImageDecoderRegistry.standard
        #expect(
            thrownImageError { _ = try registry.decode(data, options: DecodeOptions(limits: DecodingLimits(maxPixels: 320 * 240 - 1))) }
                == .overLimit(.pixels(width: 320, height: 240, limit: 320 * 240 - 1)))
        #expect(
            thrownImageError { _ = try registry.decode(data, options: DecodeOptions(limits: DecodingLimits(maxVideoSeconds: 1.5))) }
                == .overLimit(.videoDuration(seconds: 2, limit: 1.5)))
        // 50 frames over a limit of 20: the poster, as with no limit, and no animation.
        let target = DecodeTarget(width: 160, height: 120)
        let long = try registry.decode(data, options: DecodeOptions(target: target, limits: DecodingLimits(maxFrames: 20)))
        let full = try registry.decode(data, options: DecodeOptions(target: target))
        #expect(long.animation == nil && full.animation?.frameCount == 50)
        #expect(long.bitmap.size == full.bitmap.size && CodecTools.meanDifference(long.bitmap, full.bitmap) == 0)
        #expect(
            thrownImageError { _ = try registry.decode(data, options: DecodeOptions(limits: DecodingLimits(maxDecodingTime: .zero))) }
                == .overLimit(.decodingTime(limit: .zero)))
    }

    @Test("video containers are recognised by their bytes; HEIC and AVIF are not taken for videos")
    func recognition() async throws {
        for kind in Self.codecClips {
            let format = VideoContainer.format(of: try await VideoClips.shared.data(kind))
            #expect(format != nil && ImageFormat.videoFormats.contains(format!), "\(kind): \(String(describing: format))")
        }
        let directory = try CodecTools.directory("video-heic")
        let png = directory.appendingPathComponent("p.png"), avif = directory.appendingPathComponent("p.avif")
        try CodecTools.writePNG(CodecTools.picture(width: 32, height: 32, alpha: false), to: png)
        if CodecTools.available("avifenc") {
            try await CodecTools.run("avifenc", ["-s", "10", png.path, avif.path])
            let data = try Data(contentsOf: avif)
            #expect(VideoContainer.format(of: data) == nil)
            #expect(ImageDecoderRegistry.standard.format(of: data) == .avif)
        }
    }
}
#endif
