#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// HEIF/HEIC through libheif: files made by heif-enc from PNGs Iris wrote, compared with
/// heif-convert's decode (through Iris's PNG decoder). Same library, same conversion to RGB:
/// they differ only by where the premultiplication rounds (≤ 1 level); 2 levels are allowed.
@Suite("HEIF decoding (libheif)")
struct HEIFDecoderTests {
    static let tolerance = 2

    @Test(
        "Opaque and alpha HEICs at odd sizes match heif-convert",
        .enabled(if: CodecTools.available("heif-enc", "heif-convert"), CodecTools.missing("heif-enc", "heif-convert")),
        arguments: [(67, 45, false), (67, 45, true), (129, 97, false), (130, 33, true)])
    func matchesHeifConvert(width: Int, height: Int, alpha: Bool) async throws {
        let directory = try CodecTools.directory("heic")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: width, height: height, alpha: alpha), to: source)
        let heic = directory.appendingPathComponent("image.heic"), reference = directory.appendingPathComponent("heif-convert.png")
        try await CodecTools.run("heif-enc", ["-q", "80", source.path, "-o", heic.path])
        try await CodecTools.run("heif-convert", [heic.path, reference.path])

        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: heic))
        #expect(header.format == .heic && header.width == width && header.height == height && header.hasAlpha == alpha)
        #expect(try CodecTools.decode(heic).bitmap.format.hasAlpha == alpha)
        try CodecTools.expectMatches(heic, reference, tolerance: Self.tolerance)
        try CodecTools.expectMatches(
            heic, reference, tolerance: Self.tolerance + 1,
            options: DecodeOptions(target: DecodeTarget(width: 24, height: 24)))
    }

    /// HEIF's `irot`/`imir` rule its orientation; an EXIF orientation inside a HEIF is not
    /// applied (it would turn the picture a second time in files that carry both). heif-enc
    /// 1.15 copies a JPEG's EXIF block into the HEIC without writing `irot`.
    @Test(
        "EXIF orientation in a HEIC is not applied on top of irot/imir",
        .enabled(if: CodecTools.available("heif-enc"), CodecTools.missing("heif-enc")))
    func exifOrientationIgnored() async throws {
        let directory = try CodecTools.directory("heic-exif")
        let jpeg = try TestImages.jpeg(CodecTools.picture(width: 64, height: 40, alpha: false), quality: 95)
        let source = directory.appendingPathComponent("rotated.jpg")
        try EXIFBuilder.jpeg(jpeg, insertingEXIF: EXIFBuilder.tiff(orientation: 6)).write(to: source)
        let heic = directory.appendingPathComponent("rotated.heic")
        try await CodecTools.run("heif-enc", ["-q", "90", source.path, "-o", heic.path])
        let data = try Data(contentsOf: heic)
        #expect(data.range(of: Data("Exif".utf8)) != nil, "heif-enc kept the EXIF block")
        let image = try ImageDecoderRegistry.standard.decode(data)
        #expect(image.bitmap.size == PixelSize(width: 64, height: 40) && image.orientation == .up)
        #expect(CodecTools.corners(image.bitmap) == ["r", "g", "w", "b"])
    }

    /// libheif applies `irot`/`imir` itself: the header reports the turned size and the
    /// pixels come turned (an AVIF-coded HEIF from avifenc, the one encoder here that writes
    /// `irot`; libheif decodes it with its AV1 plug-in).
    @Test(
        "irot is applied by libheif, once",
        .enabled(if: CodecTools.available("avifenc", "heif-convert"), CodecTools.missing("avifenc", "heif-convert")))
    func irotApplied() async throws {
        let directory = try CodecTools.directory("heif-irot")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 48, height: 32, alpha: false), to: source)
        let file = directory.appendingPathComponent("turned.avif"), reference = directory.appendingPathComponent("libheif.png")
        try await CodecTools.run("avifenc", ["-l", "-s", "10", "--irot", "1", source.path, file.path])
        try await CodecTools.run("heif-convert", [file.path, reference.path])
        let data = try Data(contentsOf: file)
        let header = try HEIFDecoder().readHeader(data)
        #expect(header.width == 32 && header.height == 48)
        let bitmap = try HEIFDecoder().decode(data, context: DecodeContext(header: header, outputSize: header.storedSize))
        #expect(CodecTools.corners(bitmap) == ["g", "w", "b", "r"])
        #expect(CodecTools.maxDifference(bitmap, try CodecTools.decode(reference).bitmap).difference <= 1)
    }

    /// A grid image (iPhones store photos as 512×512 HEVC tiles): libheif assembles the tiles
    /// of the primary image. heif-enc 1.15 cannot write grids; avifenc can (AV1 tiles, the
    /// same `grid` item).
    @Test(
        "A grid image is assembled",
        .enabled(if: CodecTools.available("avifenc", "heif-convert"), CodecTools.missing("avifenc", "heif-convert")))
    func grid() async throws {
        let directory = try CodecTools.directory("heif-grid")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 256, height: 192, alpha: false), to: source)
        let file = directory.appendingPathComponent("grid.avif"), reference = directory.appendingPathComponent("libheif.png")
        try await CodecTools.run("avifenc", ["-l", "-s", "10", "-g", "2x2", source.path, file.path])
        try await CodecTools.run("heif-convert", [file.path, reference.path])
        let data = try Data(contentsOf: file)
        let header = try HEIFDecoder().readHeader(data)
        #expect(header.storedSize == PixelSize(width: 256, height: 192))
        let bitmap = try HEIFDecoder().decode(data, context: DecodeContext(header: header, outputSize: header.storedSize))
        #expect(CodecTools.maxDifference(bitmap, try CodecTools.decode(reference).bitmap).difference <= 1)
        #expect(CodecTools.corners(bitmap) == ["r", "g", "w", "b"])
    }

    /// A file with a stored thumbnail (heif-enc -t): a small target decodes the thumbnail, a
    /// larger one the primary image.
    @Test(
        "A stored thumbnail stands in for small targets only",
        .enabled(if: CodecTools.available("heif-enc"), CodecTools.missing("heif-enc")))
    func thumbnail() async throws {
        let directory = try CodecTools.directory("heic-thumb")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 320, height: 240, alpha: false), to: source)
        let heic = directory.appendingPathComponent("thumbnailed.heic")
        try await CodecTools.run("heif-enc", ["-q", "80", "-t", "64", source.path, "-o", heic.path])
        let data = try Data(contentsOf: heic)
        let small = try HEIFImage.with(data, maximumSide: nil) { image throws(ImageError) in
            let found = HEIFThumbnail.covering(PixelSize(width: 48, height: 36), of: image)
            defer { if let found { HEIFThumbnail.release(found) } }
            return found != nil
        }
        let large = try HEIFImage.with(data, maximumSide: nil) { image throws(ImageError) in
            let found = HEIFThumbnail.covering(PixelSize(width: 100, height: 75), of: image)
            defer { if let found { HEIFThumbnail.release(found) } }
            return found != nil
        }
        #expect(small && !large)
        let shrunk = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 48, height: 48)))
        #expect(shrunk.bitmap.size == PixelSize(width: 48, height: 36))
        #expect(CodecTools.corners(shrunk.bitmap) == ["r", "g", "w", "b"])
    }

    @Test(
        "Truncated, corrupt and bomb HEICs fail with typed errors",
        .enabled(if: CodecTools.available("heif-enc"), CodecTools.missing("heif-enc")))
    func badInput() async throws {
        let directory = try CodecTools.directory("heic-bad")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 64, height: 48, alpha: true), to: source)
        let heic = directory.appendingPathComponent("image.heic")
        try await CodecTools.run("heif-enc", ["-q", "80", source.path, "-o", heic.path])
        let data = try Data(contentsOf: heic)
        let registry = ImageDecoderRegistry.standard
        for length in stride(from: 12, to: data.count, by: max(1, data.count / 40)) {
            #expect(thrownImageError { _ = try registry.decode(data.prefix(length)) } != nil, "prefix \(length)")
        }
        // Every `ispe` claiming 100 000 × 100 000: over the limit from the header.
        var bomb = data
        var searchFrom = bomb.startIndex
        while let found = bomb[searchFrom...].range(of: Data("ispe".utf8)) {
            bomb.replaceSubrange(
                (found.lowerBound + 8)..<(found.lowerBound + 16),
                with: [UInt32(100_000), UInt32(100_000)].flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) })
            searchFrom = found.upperBound
        }
        #expect(
            thrownImageError { _ = try registry.decode(bomb) }
                == .overLimit(.pixels(width: 100_000, height: 100_000, limit: DecodingLimits.default.maxPixels)))
        var corrupt = data
        for offset in stride(from: data.count - 60, to: data.count, by: 3) { corrupt[offset] ^= 0x5A }
        _ = thrownImageError { _ = try registry.decode(corrupt) }
    }
}
#endif
