#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// AVIF through libavif: files made by avifenc from PNGs Iris wrote, compared with avifdec's
/// decode of the same files (through Iris's PNG decoder). Both decode the same AV1 bitstream
/// with the same libavif, so they differ only by rounding: the YUV→RGB conversion runs in
/// strips here (the same arithmetic) and premultiplication is libavif's here and Iris's there
/// (≤ 1 level each way): at most 2 levels per channel.
@Suite("AVIF decoding (libavif)")
struct AVIFDecoderTests {
    static let tolerance = 2

    @Test(
        "Opaque and alpha AVIFs at odd sizes match avifdec",
        .enabled(if: CodecTools.available("avifenc", "avifdec"), CodecTools.missing("avifenc", "avifdec")),
        arguments: [(67, 45, false), (67, 45, true), (129, 97, false), (130, 33, true)])
    func matchesAvifdec(width: Int, height: Int, alpha: Bool) async throws {
        let directory = try CodecTools.directory("avif")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: width, height: height, alpha: alpha), to: source)
        let avif = directory.appendingPathComponent("image.avif"), reference = directory.appendingPathComponent("avifdec.png")
        try await CodecTools.run("avifenc", ["-s", "10", source.path, avif.path])
        try await CodecTools.run("avifdec", [avif.path, reference.path])

        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: avif))
        #expect(header.format == .avif && header.width == width && header.height == height && header.hasAlpha == alpha)
        let image = try CodecTools.decode(avif)
        #expect(image.bitmap.format.hasAlpha == alpha)
        try CodecTools.expectMatches(avif, reference, tolerance: Self.tolerance)
        // A thumbnail: both shrunk by Iris's resampler from equal pictures.
        try CodecTools.expectMatches(
            avif, reference, tolerance: Self.tolerance + 1,
            options: DecodeOptions(target: DecodeTarget(width: 24, height: 24)))
    }

    /// `irot` and `imir` in every combination: libheif applies them itself when it decodes an
    /// AVIF, so heif-convert's output is an independent reference for Iris's own mapping of
    /// (turns, mirror) to an EXIF orientation. Lossless (RGB stored as is) so that libheif's and
    /// libavif's colour conversions cannot differ.
    @Test(
        "irot/imir are applied once, as libheif applies them",
        .enabled(if: CodecTools.available("avifenc", "heif-convert"), CodecTools.missing("avifenc", "heif-convert")),
        arguments: [(1, nil), (2, nil), (3, nil), (0, 0), (0, 1), (1, 0), (1, 1), (2, 1), (3, 0), (3, 1)] as [(Int, Int?)])
    func orientation(turns: Int, mirror: Int?) async throws {
        let directory = try CodecTools.directory("avif-irot")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 48, height: 32, alpha: false), to: source)
        let avif = directory.appendingPathComponent("turned.avif"), reference = directory.appendingPathComponent("libheif.png")
        var arguments = ["-l", "-s", "10", "--irot", String(turns)]
        if let mirror { arguments += ["--imir", String(mirror)] }
        try await CodecTools.run("avifenc", arguments + [source.path, avif.path])
        try await CodecTools.run("heif-convert", [avif.path, reference.path])

        let swaps = turns % 2 == 1
        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: avif))
        #expect(header.width == (swaps ? 32 : 48) && header.height == (swaps ? 48 : 32) && header.orientation == .up)
        try CodecTools.expectMatches(avif, reference, tolerance: 1)
        // And independently of libheif: one anticlockwise quarter turn puts the top-right
        // (green) quadrant at the top left.
        if turns == 1, mirror == nil {
            #expect(CodecTools.corners(try CodecTools.decode(avif).bitmap) == ["g", "w", "b", "r"])
        }
    }

    @Test(
        "A grid AVIF (avifenc -g 2x2) is assembled",
        .enabled(if: CodecTools.available("avifenc", "avifdec"), CodecTools.missing("avifenc", "avifdec")))
    func grid() async throws {
        let directory = try CodecTools.directory("avif-grid")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 256, height: 192, alpha: false), to: source)
        let avif = directory.appendingPathComponent("grid.avif"), reference = directory.appendingPathComponent("avifdec.png")
        try await CodecTools.run("avifenc", ["-s", "10", "-g", "2x2", source.path, avif.path])
        try await CodecTools.run("avifdec", [avif.path, reference.path])
        try CodecTools.expectMatches(avif, reference, tolerance: Self.tolerance)
        #expect(CodecTools.corners(try CodecTools.decode(avif).bitmap) == ["r", "g", "w", "b"])
    }

    /// Three lossless frames: each frame Iris plays equals the PNG it was made from.
    @Test("An animated AVIF plays its frames", .enabled(if: CodecTools.available("avifenc"), CodecTools.missing("avifenc")))
    func animation() async throws {
        let directory = try CodecTools.directory("avif-anim")
        var inputs: [String] = []
        var expected: [Bitmap] = []
        for index in 0..<3 {
            let frame = CodecTools.picture(width: 40 + index * 0, height: 30, alpha: false).oriented(
                index == 1 ? .down : index == 2 ? .upMirrored : .up)
            let url = directory.appendingPathComponent("frame\(index).png")
            try CodecTools.writePNG(frame, to: url)
            inputs.append(url.path)
            expected.append(frame)
        }
        let avif = directory.appendingPathComponent("animated.avif")
        try await CodecTools.run("avifenc", ["-l", "-s", "10", "--timescale", "10", "--duration", "2"] + inputs + [avif.path])
        let data = try Data(contentsOf: avif)
        #expect(try ImageDecoderRegistry.standard.header(of: data).frameCount == 3)
        let image = try ImageDecoderRegistry.standard.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        #expect(abs(animation.duration(at: 1) - 0.2) < 0.001)
        for index in 0..<3 {
            let worst = CodecTools.maxDifference(try await animation.frame(at: index), expected[index])
            #expect(worst.difference <= 1, "frame \(index) differs by \(worst.difference)")
        }
        // The decoder's own hook, for the plug-in registry.
        #expect(try AVIFDecoder().animationSource(for: data, limits: .default)?.frameCount == 3)
    }

    @Test(
        "Truncated, corrupt, lying and bomb AVIFs fail with typed errors",
        .enabled(if: CodecTools.available("avifenc"), CodecTools.missing("avifenc")))
    func badInput() async throws {
        let directory = try CodecTools.directory("avif-bad")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 67, height: 45, alpha: true), to: source)
        let avif = directory.appendingPathComponent("image.avif")
        try await CodecTools.run("avifenc", ["-s", "10", source.path, avif.path])
        let data = try Data(contentsOf: avif)
        let registry = ImageDecoderRegistry.standard

        // Every prefix fails with an error, never a crash.
        for length in stride(from: 12, to: data.count, by: max(1, data.count / 40)) {
            #expect(thrownImageError { _ = try registry.decode(data.prefix(length)) } != nil, "prefix \(length)")
        }
        let ispe = try #require(data.range(of: Data("ispe".utf8))).lowerBound
        func claiming(_ width: UInt32, _ height: UInt32) -> Data {
            var copy = data
            copy.replaceSubrange((ispe + 8)..<(ispe + 16), with: [width, height].flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) })
            return copy
        }
        // A claim of 100 000 × 100 000: over the limit from the header, before any allocation.
        #expect(
            thrownImageError { _ = try registry.decode(claiming(100_000, 100_000)) }
                == .overLimit(.pixels(width: 100_000, height: 100_000, limit: DecodingLimits.default.maxPixels)))
        // An `ispe` larger than the AV1 frame: `ispe` is the reconstructed image's size, and
        // libavif scales the frame to it; what that costs is what the claim says, so the
        // limits judge the claim before libavif decodes anything.
        #expect(try registry.decode(claiming(640, 480)).bitmap.size == PixelSize(width: 640, height: 480))
        #expect(
            thrownImageError {
                _ = try registry.decode(claiming(640, 480), options: DecodeOptions(limits: DecodingLimits(maxPixels: 100_000)))
            } == .overLimit(.pixels(width: 640, height: 480, limit: 100_000)))
        // Corrupt AV1 data: an error or a picture, never a crash.
        var corrupt = data
        for offset in stride(from: data.count - 60, to: data.count, by: 3) { corrupt[offset] ^= 0x5A }
        _ = thrownImageError { _ = try registry.decode(corrupt) }
    }
}
#endif
