#if canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// GIFs Iris wrote, read by decoders that are not Iris's: giflib's own `gifbuild -d` (the
/// records as stored: screen, loop extension, graphic control blocks) and FFmpeg's GIF decoder
/// (its own LZW decoder and compositing: frame count, delays, every pixel).
@Suite("GIF encoder against giflib's tools and FFmpeg")
struct GIFEncoderToolTests {
    /// What `gifbuild -d` (giflib-tools) dumps of a GIF's records.
    struct Dump {
        var screen = PixelSize(width: 0, height: 0)
        var netscapeLoop: Int?
        var images = 0
        var delays: [Int] = []
        var disposals: [Int] = []
        var transparentIndices: [Int] = []

        init(_ text: String) {
            var width = 0, height = 0
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                let last = words.last.flatMap { Int($0) }
                switch words.dropLast().joined(separator: " ") {
                case "screen width": width = last ?? 0
                case "screen height": height = last ?? 0
                case "netscape loop": netscapeLoop = last
                case "delay": delays.append(last ?? -1)
                case "disposal mode": disposals.append(last ?? -1)
                case "transparent index": transparentIndices.append(last ?? -2)
                case "image #": images += 1
                default: break
                }
            }
            screen = PixelSize(width: width, height: height)
        }
    }

    static func dump(_ file: URL) async throws -> Dump {
        Dump(try await CodecTools.output("gifbuild", ["-d", file.path]))
    }

    /// Every frame FFmpeg decodes from `file`, as RGBA of `size`, and its packet durations in
    /// hundredths of a second.
    static func ffmpegFrames(_ file: URL, size: PixelSize, in directory: URL) async throws -> (frames: [Bitmap], delays: [Int]) {
        let raw = directory.appendingPathComponent("\(file.lastPathComponent).rgba")
        try await CodecTools.run(
            "ffmpeg",
            [
                "-v", "error", "-i", file.path, "-fps_mode", "passthrough", "-f", "rawvideo",
                "-pix_fmt", "rgba", "-y", raw.path,
            ])
        let bytes = [UInt8](try Data(contentsOf: raw))
        let frameBytes = size.width * size.height * 4
        #expect(bytes.count % frameBytes == 0, "\(bytes.count) bytes are not whole \(size) frames")
        let frames = stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { start in
            Bitmap(width: size.width, height: size.height, format: .rgba8, pixels: Array(bytes[start..<(start + frameBytes)]))!
                .markedStraight()
        }
        let probe = try await CodecTools.output(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration",
                "-of", "csv=p=0", file.path,
            ])
        return (frames, probe.split(separator: "\n").compactMap { Int($0) })
    }

    static let skipGiflib = Comment(rawValue: "SKIPPED: gifbuild not installed; run scripts/install-deps (giflib-tools)")
    static let skipFFmpeg = Comment(rawValue: "SKIPPED: ffmpeg or ffprobe not installed; run scripts/install-deps (ffmpeg)")

    @Test(
        "gifbuild reads the animation's screen, loop count, frames, delays, disposal and transparent index",
        .enabled(if: CodecTools.available("gifbuild"), skipGiflib))
    func giflibReadsAnimation() async throws {
        let directory = try CodecTools.directory("gif-gifbuild")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("animation.gif")
        let animation = Animation(frames: AnimatedGIFEncoderTests.frames(), durations: AnimatedGIFEncoderTests.durations, loopCount: 4)
        try await AnimatedGIFEncoder().encode(animation, options: EncodeOptions()).write(to: file)
        let dump = try await Self.dump(file)
        #expect(dump.screen == PixelSize(width: 40, height: 30))
        #expect(dump.netscapeLoop == 3)  // 4 plays: 3 repeats
        #expect(dump.images == 3)
        #expect(dump.delays == [10, 25, 5])
        #expect(dump.disposals == [2, 2, 2])
        #expect(dump.transparentIndices == [0, 0, 0])  // every frame reserves its transparent entry
    }

    @Test(
        "gifbuild reads a still: no loop extension, no graphic control block when nothing is transparent",
        .enabled(if: CodecTools.available("gifbuild"), skipGiflib))
    func giflibReadsStill() async throws {
        let directory = try CodecTools.directory("gif-gifbuild-still")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("still.gif")
        try GIFEncoder().encode(SampleImages.photo(width: 33, height: 21), options: EncodeOptions()).write(to: file)
        let dump = try await Self.dump(file)
        #expect(dump.screen == PixelSize(width: 33, height: 21) && dump.images == 1)
        #expect(dump.netscapeLoop == nil && dump.delays.isEmpty)
    }

    @Test(
        "FFmpeg decodes every frame of the animation exactly, transparent pixels transparent, with its delays",
        .enabled(if: CodecTools.available("ffmpeg", "ffprobe"), skipFFmpeg))
    func ffmpegDecodesAnimation() async throws {
        let directory = try CodecTools.directory("gif-ffmpeg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("animation.gif")
        let frames = AnimatedGIFEncoderTests.frames()
        let animation = Animation(frames: frames, durations: AnimatedGIFEncoderTests.durations, loopCount: 0)
        try await AnimatedGIFEncoder().encode(animation, options: EncodeOptions()).write(to: file)
        let decoded = try await Self.ffmpegFrames(file, size: PixelSize(width: 40, height: 30), in: directory)
        #expect(decoded.frames.count == 3)
        #expect(decoded.delays == [10, 25, 5])
        for (index, frame) in decoded.frames.enumerated() where index < frames.count {
            // FFmpeg leaves colour under transparent pixels; premultiplying clears it, as Iris stores it.
            expectSameBytes(frame.premultiplied(), frames[index], "frame \(index)")
        }
        #expect(decoded.frames.last?.rgba(x: 3, y: 3).a == 0)
    }

    @Test(
        "FFmpeg decodes a photo GIF close to the photo",
        .enabled(if: CodecTools.available("ffmpeg", "ffprobe"), skipFFmpeg))
    func ffmpegDecodesPhoto() async throws {
        let directory = try CodecTools.directory("gif-ffmpeg-photo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.gif")
        let photo = SampleImages.photo(width: 160, height: 120, seed: 9)
        try GIFEncoder().encode(photo, options: EncodeOptions()).write(to: file)
        let decoded = try await Self.ffmpegFrames(file, size: photo.size, in: directory)
        let frame = try #require(decoded.frames.first)
        #expect(decoded.frames.count == 1)
        let difference = GIFEncoderTests.meanDifference(frame, photo)
        #expect(difference < 8, "mean absolute difference \(difference)")
    }
}
#endif
