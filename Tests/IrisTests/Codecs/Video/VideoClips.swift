#if os(Linux)
import Foundation
import Testing
@testable import Iris

/// Short clips made by Debian's `ffmpeg` from its test pattern (`testsrc2`: moving shapes, a
/// frame counter), each made once per test run and shared by the tests that read it, and what
/// `ffprobe` says of them.
actor VideoClips {
    static let shared = VideoClips()

    /// A clip: its container and codec, as ffmpeg is asked to write them.
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case h264MP4 = "h264.mp4"
        case h264MOV = "h264.mov"
        case hevcMP4 = "hevc.mp4"
        case hevcMOV = "hevc.mov"
        case vp9WebM = "vp9.webm"
        case av1WebM = "av1.webm"
        /// H.264 with the rotation a phone held upright writes (90°).
        case rotatedMP4 = "rotated.mp4"
        /// 0.4 s of black, then the pattern: its poster is not its first frame.
        case blackStartMP4 = "blackstart.mp4"
        /// Sound only.
        case audioOnlyM4A = "audio.m4a"
        /// H.264 in containers Iris does not read (FLV, MPEG-TS).
        case h264FLV = "h264.flv"
        case h264TS = "h264.ts"

        var description: String { rawValue }

        /// ffmpeg's arguments (after the inputs are named) for this clip.
        var arguments: [String] {
            let pattern = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
            let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
            let hevc = [
                "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=error",
            ]
            switch self {
            case .h264MP4, .h264MOV, .h264FLV, .h264TS: return pattern + h264
            case .hevcMP4, .hevcMOV: return pattern + hevc
            case .vp9WebM: return pattern + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"]
            case .av1WebM:
                return [
                    "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=0.6", "-c:v", "libaom-av1", "-cpu-used", "8",
                    "-b:v", "200k",
                ]
            case .rotatedMP4: return []  // made from h264.mp4, see url(_:)
            case .blackStartMP4:
                return [
                    "-f", "lavfi", "-i", "color=black:size=320x240:rate=25:duration=0.4", "-f", "lavfi", "-i",
                    "testsrc2=size=320x240:rate=25:duration=1.6", "-filter_complex", "[0:v][1:v]concat=n=2:v=1",
                ] + h264
            case .audioOnlyM4A: return ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", "-f", "mp4"]
            }
        }
    }

    private var made: [Kind: Task<URL, any Error>] = [:]
    private var directory: URL?

    /// The clip of `kind`, made on first use.
    func url(_ kind: Kind) async throws -> URL {
        if let task = made[kind] { return try await task.value }
        let folder = try directory ?? CodecTools.directory("video")
        directory = folder
        let url = folder.appendingPathComponent(kind.rawValue)
        let task = Task {
            var arguments = kind.arguments
            if kind == .rotatedMP4 {
                // The rotation is written by a stream copy with the `rotate` tag (ffmpeg 5 turns
                // it into a display matrix then, as a phone writes; not when encoding).
                arguments = ["-i", try await self.url(.h264MP4).path, "-c", "copy", "-metadata:s:v:0", "rotate=90"]
            }
            try await CodecTools.run("ffmpeg", ["-v", "error", "-y"] + arguments + [url.path])
            return url
        }
        made[kind] = task
        return try await task.value
    }

    /// The clip's bytes.
    func data(_ kind: Kind) async throws -> Data { try Data(contentsOf: await url(kind)) }

    /// What ffprobe says of the clip's first video stream: width, height (stored), the frames it
    /// counts by decoding, duration in seconds, frame rate and the display rotation.
    struct Probe: Sendable {
        var width: Int
        var height: Int
        var frames: Int
        var duration: Double
        var frameRate: Double
        var rotation: Int
    }

    /// `ffprobe -count_frames` of the clip.
    func probe(_ kind: Kind) async throws -> Probe {
        let text = try await CodecTools.output(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=width,height,nb_read_frames,duration,avg_frame_rate:stream_side_data=rotation:format=duration",
                "-of", "json", url(kind).path,
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let stream = try #require((object["streams"] as? [[String: Any]])?.first)
        let rateParts = ((stream["avg_frame_rate"] as? String) ?? "0/1").split(separator: "/").compactMap { Double($0) }
        let duration =
            Double(stream["duration"] as? String ?? "") ?? Double((object["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        let rotation = ((stream["side_data_list"] as? [[String: Any]])?.first?["rotation"] as? Int) ?? 0
        return Probe(
            width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0,
            frames: Int(stream["nb_read_frames"] as? String ?? "") ?? 0, duration: duration,
            frameRate: rateParts.count == 2 && rateParts[1] != 0 ? rateParts[0] / rateParts[1] : 0, rotation: rotation)
    }

    /// ffmpeg's own frame of the clip as a PNG at `width`×`height` (libswscale's area filter,
    /// as Iris asks for when shrinking), autorotated as ffmpeg shows it: `at` seconds (`-ss`, the
    /// first frame at or after it), or frame number `index`.
    func referenceFrame(_ kind: Kind, width: Int, height: Int, at seconds: Double? = nil, index: Int? = nil) async throws -> Bitmap {
        let output = try CodecTools.directory("video-ref").appendingPathComponent("frame.png")
        var arguments = ["-v", "error", "-y"]
        if let seconds { arguments += ["-ss", String(seconds)] }
        arguments += ["-i", try await url(kind).path]
        var filters = ["scale=\(width):\(height):flags=area"]
        if let index { filters.insert("select=eq(n\\,\(index))", at: 0) }
        arguments += ["-vf", filters.joined(separator: ","), "-frames:v", "1", output.path]
        try await CodecTools.run("ffmpeg", arguments)
        return try CodecTools.decode(output).bitmap
    }
}

extension CodecTools {
    /// Whether ffmpeg and ffprobe are installed (scripts/install-deps installs them).
    static var hasFFmpeg: Bool { available("ffmpeg", "ffprobe") }
    /// The skip reason when they are not.
    static var missingFFmpeg: Comment { Comment(rawValue: "SKIPPED: ffmpeg/ffprobe not installed; run scripts/install-deps") }
}
#endif
