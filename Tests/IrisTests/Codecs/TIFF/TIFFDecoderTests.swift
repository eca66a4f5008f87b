#if canImport(CTIFF)
import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

/// TIFF through libtiff: files written by ImageMagick and rewritten by libtiff's own `tiffcp`
/// and `tiffset`, compared with ImageMagick's decode of the same file (written as a PNG and read
/// by Iris's PNG decoder). Bad files give typed errors and print nothing.
@Suite("TIFF decoding (libtiff)")
struct TIFFDecoderTests {
    static let tools = CodecTools.available("convert", "tiffcp", "tiffset")
    static let missing = Comment(
        rawValue: "SKIPPED: convert, tiffcp or tiffset not installed; run scripts/install-deps (imagemagick, libtiff-tools)")

    /// A TIFF of the test picture written by ImageMagick with `arguments`, and ImageMagick's
    /// decode of it as a PNG.
    static func make(
        _ label: String, width: Int = 67, height: Int = 45, alpha: Bool = false,
        _ arguments: [String]
    ) async throws -> (tiff: URL, reference: URL) {
        let directory = try CodecTools.directory("tiff-\(label)")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: width, height: height, alpha: alpha), to: source)
        let tiff = directory.appendingPathComponent("image.tif"), reference = directory.appendingPathComponent("reference.png")
        try await CodecTools.run("convert", [source.path] + arguments + [tiff.path])
        try await CodecTools.run("convert", [tiff.path + "[0]", "PNG32:" + reference.path])
        return (tiff, reference)
    }

    @Test(
        "Compressions, strips, tiles, alpha, grey and 16 bits match ImageMagick's decode", .enabled(if: tools, missing),
        arguments: [
            ("none", false, ["-compress", "none"], 1),
            ("lzw", false, ["-compress", "lzw"], 1),
            ("zip-alpha", true, ["-compress", "zip"], 1),
            ("tiles", true, ["-compress", "lzw", "-define", "tiff:tile-geometry=16x16"], 1),
            ("grey", false, ["-colorspace", "gray", "-compress", "lzw"], 1),
            ("16-bit", false, ["-depth", "16", "-compress", "zip"], 1),
            ("big-endian", false, ["-endian", "MSB", "-compress", "none"], 1),
            ("jpeg", false, ["-compress", "jpeg", "-quality", "90"], 4),
        ] as [(String, Bool, [String], Int)])
    func matchesImageMagick(label: String, alpha: Bool, arguments: [String], tolerance: Int) async throws {
        let (tiff, reference) = try await Self.make(label, alpha: alpha, arguments)
        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: tiff))
        #expect(header.format == .tiff && header.width == 67 && header.height == 45 && header.hasAlpha == alpha)
        let image = try CodecTools.decode(tiff)
        #expect(image.format == .tiff && image.bitmap.format.hasAlpha == alpha)
        try CodecTools.expectMatches(tiff, reference, tolerance: tolerance)
        // At a target: the same rows through the same resampler.
        try CodecTools.expectMatches(
            tiff, reference, tolerance: tolerance,
            options: DecodeOptions(target: DecodeTarget(width: 24, height: 24)))
    }

    /// `tiffcp` rewrites strips of 7 rows, and 16×16 tiles: bands that do not divide the height.
    @Test(
        "Strips and tiles rewritten by tiffcp decode the same, at full size and shrunk", .enabled(if: tools, missing),
        arguments: [["-c", "lzw", "-r", "7"], ["-c", "zip", "-t", "-w", "16", "-l", "16"], ["-c", "none", "-r", "1"]])
    func tiffcpLayouts(arguments: [String]) async throws {
        let (tiff, reference) = try await Self.make("tiffcp", width: 130, height: 97, alpha: true, ["-compress", "none"])
        let rewritten = tiff.deletingLastPathComponent().appendingPathComponent("rewritten.tif")
        try await CodecTools.run("tiffcp", arguments + [tiff.path, rewritten.path])
        try CodecTools.expectMatches(rewritten, reference, tolerance: 1)
        try CodecTools.expectMatches(
            rewritten, reference, tolerance: 1, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
        let small = try CodecTools.decode(rewritten, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
        #expect(small.bitmap.size == PixelSize(width: 40, height: 30) && small.sourceSize == PixelSize(width: 130, height: 97))
    }

    /// ImageMagick embeds Adobe RGB (1998) from colord-data (the source's numbers kept) and
    /// converts that file to sRGB through Little CMS (`-profile sRGB.icc`): the reference.
    @Test("An embedded ICC profile is converted to sRGB as Little CMS does", .enabled(if: tools, missing))
    func iccProfile() async throws {
        let colord = "/usr/share/color/icc/colord/"
        let adobe = try #require(ICCProfile(data: Data(contentsOf: URL(fileURLWithPath: colord + "AdobeRGB1998.icc"))))
        for alpha in [false, true] {
            let (tiff, _) = try await Self.make(
                "icc-\(alpha)", width: 80, height: 60, alpha: alpha, ["-profile", colord + "AdobeRGB1998.icc", "-compress", "lzw"])
            let reference = tiff.deletingLastPathComponent().appendingPathComponent("srgb.png")
            try await CodecTools.run("convert", [tiff.path, "-profile", colord + "sRGB.icc", "-strip", "PNG32:" + reference.path])
            let data = try Data(contentsOf: tiff)
            let kept = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(colorManagement: .keepSource)).bitmap
            #expect(kept.colorSpace == .icc(adobe), "alpha \(alpha)")
            let converted = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(colorManagement: .convertToSRGB)).bitmap
            let theirs = try CodecTools.decode(reference).bitmap
            #expect(converted.colorSpace == .sRGB && converted.size == theirs.size)
            let worst = CodecTools.maxDifference(converted, theirs)
            #expect(worst.difference <= 3, "alpha \(alpha): differs by \(worst.difference) at (\(worst.x), \(worst.y))")
            #expect(CodecTools.meanDifference(converted, theirs) <= 1, "alpha \(alpha)")
            // Not a test of nothing: the file's own numbers are far from the converted ones.
            #expect(CodecTools.maxDifference(kept, theirs).difference >= 10, "alpha \(alpha)")
            #expect(CodecTools.meanDifference(kept, theirs) >= 2, "alpha \(alpha)")
        }
    }

    @Test("The Orientation tag turns the image, once", .enabled(if: tools, missing))
    func orientation() async throws {
        let (tiff, _) = try await Self.make("orientation", width: 64, height: 40, ["-compress", "lzw"])
        try await CodecTools.run("tiffset", ["-s", "274", "6", tiff.path])
        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: tiff))
        #expect(header.orientation == .right && header.orientedSize == PixelSize(width: 40, height: 64))
        let image = try CodecTools.decode(tiff)
        #expect(image.bitmap.size == PixelSize(width: 40, height: 64))
        // Turned 90° clockwise: the bottom-left (blue) quadrant comes to the top left.
        #expect(CodecTools.corners(image.bitmap) == ["b", "r", "g", "w"])
    }

    @Test("Of a multi-page file, the first page", .enabled(if: tools, missing))
    func firstPage() async throws {
        let directory = try CodecTools.directory("tiff-pages")
        let first = directory.appendingPathComponent("first.png"), second = directory.appendingPathComponent("second.png")
        try CodecTools.writePNG(CodecTools.picture(width: 50, height: 30, alpha: false), to: first)
        try CodecTools.writePNG(CodecTools.picture(width: 20, height: 80, alpha: true), to: second)
        let tiff = directory.appendingPathComponent("pages.tif")
        try await CodecTools.run("convert", [first.path, second.path, "-compress", "lzw", tiff.path])
        let image = try CodecTools.decode(tiff)
        #expect(image.bitmap.size == PixelSize(width: 50, height: 30) && image.animation == nil)
        try CodecTools.expectMatches(tiff, first, tolerance: 1)
    }

    @Test("Cut files give a typed error, never a crash, and print nothing", .enabled(if: tools, missing))
    func truncated() async throws {
        let (tiff, _) = try await Self.make("truncated", width: 96, height: 64, ["-compress", "lzw"])
        let data = try Data(contentsOf: tiff)
        let printed = try StandardErrorCapture.capture {
            // (ImageMagick writes the directory before the strips: the last bytes are pixels.)
            for cut in [8, 16, 100, data.count / 3, data.count / 2, data.count - 200] {
                for target in [nil, DecodeTarget(width: 16, height: 16)] {
                    let error = thrownImageError {
                        _ = try ImageDecoderRegistry.standard.decode(data.prefix(cut), options: DecodeOptions(target: target))
                    }
                    switch error {
                    case .truncated(.tiff, _, _), .decodingFailed(.tiff, _), .invalidDimensions(.tiff, _, _): break
                    default: Issue.record("cut at \(cut) of \(data.count): \(String(describing: error))")
                    }
                }
            }
        }
        // libtiff's own handlers start each line with the file's name.
        #expect(!printed.contains(TIFFReader.clientName), "libtiff printed: \(printed)")
    }

    @Test("Corrupt strips and directories give a typed error naming libtiff's cause", .enabled(if: tools, missing))
    func corrupt() async throws {
        let (tiff, _) = try await Self.make("corrupt", width: 96, height: 64, ["-compress", "zip"])
        let data = try Data(contentsOf: tiff)
        var random = SplitMix(seed: 35)
        var failures = 0
        let printed = try StandardErrorCapture.capture {
            for _ in 0..<200 {
                var bad = data
                for _ in 0..<8 { bad[8 + Int(random.next() % UInt64(data.count - 8))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
                do {
                    let image = try ImageDecoderRegistry.standard.decode(bad)
                    #expect(image.bitmap.width > 0)
                } catch {
                    failures += 1
                    #expect(error is ImageError, "\(error)")
                }
            }
        }
        #expect(failures > 0)
        // libtiff's own handlers start each line with the file's name.
        #expect(!printed.contains(TIFFReader.clientName), "libtiff printed: \(printed)")
        // zlib's check fails in the first strip: the reason is libtiff's message.
        var strip = data
        for index in 16..<48 { strip[index] ^= 0x5A }
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(strip) }
        guard case .decodingFailed(.tiff, let reason)? = error else {
            Issue.record("expected a TIFF decoding failure, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("libtiff"), "\(reason)")
    }

    @Test("A size over the limits is refused from the directory, before anything is allocated", .enabled(if: tools, missing))
    func overLimit() async throws {
        let (tiff, _) = try await Self.make("limits", width: 32, height: 32, ["-compress", "none"])
        try await CodecTools.run("tiffset", ["-s", "256", "200000", tiff.path])
        try await CodecTools.run("tiffset", ["-s", "257", "150000", tiff.path])
        let data = try Data(contentsOf: tiff)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.width == 200_000 && header.height == 150_000)
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data) }
        guard case .overLimit(.pixels(200_000, 150_000, _))? = error else {
            Issue.record("expected over the pixel limit, got \(String(describing: error))")
            return
        }
    }
}
#endif
