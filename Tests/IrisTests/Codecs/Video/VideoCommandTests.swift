#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// Videos through the `iris` tool: `info` says what ffprobe says, `thumbnail` writes the poster
/// (at `--at`, the frame `ffmpeg -ss` gives), `frames` writes every frame.
@Suite("Videos in the iris tool", .enabled(if: CodecTools.hasFFmpeg, CodecTools.missingFFmpeg))
struct VideoCommandTests {
    @Test("info --json: codec, shown and stored size, frames, duration, rate")
    func info() async throws {
        let rotated = try await VideoClips.shared.url(.rotatedMP4)
        let probe = try await VideoClips.shared.probe(.rotatedMP4)
        let object = try await CodecCommandRun.infoJSON(rotated)
        #expect(object["format"] as? String == "mp4" && object["codec"] as? String == "h264")
        #expect(object["width"] as? Int == probe.height && object["height"] as? Int == probe.width)
        #expect(object["storedWidth"] as? Int == probe.width && object["storedHeight"] as? Int == probe.height)
        #expect(object["frames"] as? Int == probe.frames)
        #expect(abs((object["duration"] as? Double ?? 0) - probe.duration) < 0.05)
        #expect(abs((object["frameRate"] as? Double ?? 0) - probe.frameRate) < 0.01)
    }

    @Test("thumbnail --at writes the frame ffmpeg -ss gives; without it, the first frame that is not black")
    func thumbnail() async throws {
        let clip = try await VideoClips.shared.url(.h264MP4)
        let out = try CodecTools.directory("video-thumbs")
        let run = try await CodecCommandRun.iris([
            "thumbnail", "--size", "160", "--format", "png", "--at", "1.1", "--out", out.path, clip.path,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let written = try CodecTools.decode(out.appendingPathComponent("h264.png")).bitmap
        let reference = try await VideoClips.shared.referenceFrame(.h264MP4, width: 160, height: 120, at: 1.1)
        #expect(written.size == reference.size)
        let mean = CodecTools.meanDifference(written, reference)
        #expect(mean < 2, "the thumbnail at 1.1 s differs from ffmpeg's by \(mean) levels")

        let black = try await VideoClips.shared.url(.blackStartMP4)
        let blackRun = try await CodecCommandRun.iris(["thumbnail", "--size", "160", "--format", "png", "--out", out.path, black.path])
        #expect(blackRun.status == 0, "\(blackRun.standardError)")
        #expect(!VideoPoster.isBlack(try CodecTools.decode(out.appendingPathComponent("blackstart.png")).bitmap))
    }

    @Test("frames writes one PNG per frame of the clip")
    func frames() async throws {
        let clip = try await VideoClips.shared.url(.av1WebM)
        let probe = try await VideoClips.shared.probe(.av1WebM)
        let out = try CodecTools.directory("video-frames")
        let run = try await CodecCommandRun.iris(["frames", "--size", "40", "--out", out.path, clip.path])
        #expect(run.status == 0, "\(run.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
        #expect(files.count == probe.frames, "\(files.count) frames written, ffprobe counts \(probe.frames)")
    }
}
#endif
