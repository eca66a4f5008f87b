import Foundation
import HTTPTypes
import Iris
import IrisServer
import Testing

/// A video source is served as its poster, a still in the format asked for or negotiated (as
/// imgproxy's video thumbnails are), never as an animation of the whole clip.
@Suite(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "SKIPPED: ffmpeg not installed; run scripts/install-deps")
)
struct VideoSourceTests {
    /// A 2-second 320×240 H.264 clip made by Debian's ffmpeg from its test pattern, starting
    /// with 0.4 s of black.
    static func clip() async throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-server-video-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let status = try await runTool(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=black:size=320x240:rate=25:duration=0.4",
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1.6",
                "-filter_complex", "[0:v][1:v]concat=n=2:v=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path,
            ])
        try #require(status == 0, "ffmpeg failed (\(status))")
        return try Data(contentsOf: url)
    }

    @Test func aVideoIsServedAsItsPoster() async throws {
        let files = SourceFiles()
        files["clip.mp4"] = try await Self.clip()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration { $0.videoSources = true }) { client, _ in
                // Negotiated: a still's order (AVIF, then WebP), not the animated one.
                var headers = HTTPFields()
                headers[.accept] = "image/webp,*/*"
                let negotiated = try await client.get(Harness.path(["rs:fit:160:160"], source: "\(base)/f/clip.mp4"), headers: headers)
                #expect(negotiated.status == .ok, "\(negotiated.text)")
                #expect(negotiated.headers[.contentType] == "image/webp")
                let poster = try TestImages.decode(negotiated.data)
                #expect(poster.bitmap.size == PixelSize(width: 160, height: 120) && poster.animation == nil)
                // The poster is the first frame that is not black.
                var brightness = 0
                for y in stride(from: 5, to: 120, by: 10) {
                    for x in stride(from: 5, to: 160, by: 10) {
                        let pixel = poster.bitmap.rgba(x: x, y: y)
                        brightness += (Int(pixel.r) + Int(pixel.g) + Int(pixel.b)) / 3
                    }
                }
                #expect(brightness / (12 * 16) > 40, "the poster is black: mean level \(brightness / (12 * 16))")

                let jpeg = try await client.get(Harness.path(["rs:fill:100:100"], source: "\(base)/f/clip.mp4", extension: "jpg"))
                #expect(jpeg.status == .ok && jpeg.headers[.contentType] == "image/jpeg", "\(jpeg.text)")
                #expect(try TestImages.decode(jpeg.data).bitmap.size == PixelSize(width: 100, height: 100))
            }
        }
    }
    /// Off by default: a video source is a 415 that says why, and nothing is decoded.
    @Test func videoSourcesAreOffByDefault() async throws {
        let files = SourceFiles()
        files["clip.mp4"] = try await Self.clip()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let response = try await client.get(Harness.path(["rs:fit:160:160"], source: "\(base)/f/clip.mp4", extension: "jpg"))
                #expect(response.status.code == 415)
                #expect(response.text.contains("video sources are turned off") && response.text.contains("IRIS_VIDEO"), "\(response.text)")
            }
        }
    }
    /// The poster is made in a child process: a decoder that aborts on purpose costs its one
    /// request (a 500), and the service serves the next, the same video included.
    @Test func aCrashingVideoDecoderCostsOneRequest() async throws {
        let real = VideoPosterProcess.besideThisExecutable
        try #require(FileManager.default.isExecutableFile(atPath: real.path), "iris-video-poster is built beside the tests")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iris-video-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("crash-next")
        try Data().write(to: marker)
        // Aborts (SIGABRT) while the marker is there, once; else the real decoder.
        let script = folder.appendingPathComponent("aborting-video-poster")
        try """
        #!/bin/sh
        if [ -e '\(marker.path)' ]; then rm -f '\(marker.path)'; kill -ABRT $$; fi
        exec '\(real.path)' "$@"

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let files = SourceFiles()
        files["clip.mp4"] = try await Self.clip()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.videoSources = true
                $0.videoPosterExecutable = script.path
            }
            try await Harness.withService(config) { client, _ in
                let path = Harness.path(["rs:fit:160:160"], source: "\(base)/f/clip.mp4", extension: "png")
                let crashed = try await client.get(path)
                #expect(crashed.status.code == 500 && crashed.text.contains("crashed"), "\(crashed.status) \(crashed.text)")
                let still = try await client.get(Harness.path(["w:40"], source: "\(base)/f/p.jpg", extension: "png"))
                #expect(still.status == .ok)
                let again = try await client.get(path)
                #expect(again.status == .ok, "\(again.text)")
                #expect(try TestImages.decode(again.data).bitmap.size == PixelSize(width: 160, height: 120))
            }
        }
    }
}
