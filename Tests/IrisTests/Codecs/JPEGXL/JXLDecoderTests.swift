#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// JPEG XL through libjxl: files made by cjxl from PNGs Iris wrote, compared with djxl's
/// decode (through Iris's PNG decoder). Both run libjxl's same pipeline; djxl writes 8-bit PNG
/// from its float output while Iris asks libjxl for 8-bit directly, and premultiplies itself:
/// up to 3 levels per channel.
@Suite("JPEG XL decoding (libjxl)")
struct JXLDecoderTests {
    static let tolerance = 3

    @Test(
        "Lossy, lossless and alpha JPEG XL at odd sizes match djxl",
        .enabled(if: CodecTools.available("cjxl", "djxl"), CodecTools.missing("cjxl", "djxl")),
        arguments: [(67, 45, false, "1"), (67, 45, true, "1"), (129, 97, false, "0"), (130, 33, true, "0")])
    func matchesDjxl(width: Int, height: Int, alpha: Bool, distance: String) async throws {
        let directory = try CodecTools.directory("jxl")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: width, height: height, alpha: alpha), to: source)
        let jxl = directory.appendingPathComponent("image.jxl"), reference = directory.appendingPathComponent("djxl.png")
        try await CodecTools.run("cjxl", [source.path, jxl.path, "-d", distance, "-e", "3"])
        try await CodecTools.run("djxl", [jxl.path, reference.path])

        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: jxl))
        #expect(header.format == .jpegXL && header.width == width && header.height == height && header.hasAlpha == alpha)
        #expect(try CodecTools.decode(jxl).bitmap.format.hasAlpha == alpha)
        try CodecTools.expectMatches(jxl, reference, tolerance: Self.tolerance)
        try CodecTools.expectMatches(
            jxl, reference, tolerance: Self.tolerance + 1,
            options: DecodeOptions(target: DecodeTarget(width: 24, height: 24)))
    }

    /// Shrinking a lossy image to an eighth or less stops after the DC (1/8 resolution,
    /// upsampled by libjxl): close to the full decode shrunk the same way, not equal (the DC
    /// lacks the detail the shrink would average in, and libjxl's upsampling is smooth).
    @Test(
        "An eighth or less decodes from the DC, close to the full decode",
        .enabled(if: CodecTools.available("cjxl", "djxl"), CodecTools.missing("cjxl", "djxl")))
    func dcPreview() async throws {
        let directory = try CodecTools.directory("jxl-dc")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 512, height: 384, alpha: false), to: source)
        let jxl = directory.appendingPathComponent("image.jxl"), reference = directory.appendingPathComponent("djxl.png")
        try await CodecTools.run("cjxl", [source.path, jxl.path, "-d", "1", "-e", "3"])
        try await CodecTools.run("djxl", [jxl.path, reference.path])
        let options = DecodeOptions(target: DecodeTarget(width: 48, height: 48))
        let mine = try CodecTools.decode(jxl, options: options).bitmap
        let theirs = try CodecTools.decode(reference, options: options).bitmap
        #expect(mine.size == PixelSize(width: 48, height: 36) && theirs.size == mine.size)
        // The DC path was taken: a full decode shrunk by the same resampler would match djxl's
        // within the tolerance; the DC differs more at hard edges, and little on average.
        let worst = CodecTools.maxDifference(mine, theirs)
        #expect(worst.difference > Self.tolerance + 1, "DC thumbnail differs by only \(worst.difference): was the DC path taken?")
        let mean = CodecTools.meanDifference(mine, theirs)
        #expect(mean <= 3, "DC thumbnail differs by \(mean) levels on average (worst \(worst.difference) at (\(worst.x), \(worst.y)))")
        #expect(CodecTools.corners(mine) == ["r", "g", "w", "b"])
    }

    /// cjxl moves a JPEG's EXIF orientation into the codestream's orientation field (both when
    /// it keeps the JPEG's DCT data and when it re-encodes the pixels); libjxl applies it and
    /// reports the turned size, and Iris turns nothing more (the EXIF box stays in the file).
    @Test(
        "The codestream orientation is applied once",
        .enabled(if: CodecTools.available("cjxl", "djxl"), CodecTools.missing("cjxl", "djxl")),
        arguments: ["1", "0"])
    func orientation(keepsJPEG: String) async throws {
        let directory = try CodecTools.directory("jxl-orientation")
        let jpeg = try TestImages.jpeg(CodecTools.picture(width: 64, height: 40, alpha: false), quality: 95)
        let source = directory.appendingPathComponent("rotated.jpg")
        try EXIFBuilder.jpeg(jpeg, insertingEXIF: EXIFBuilder.tiff(orientation: 6)).write(to: source)
        let jxl = directory.appendingPathComponent("rotated.jxl"), reference = directory.appendingPathComponent("djxl.png")
        try await CodecTools.run("cjxl", [source.path, jxl.path, "-j", keepsJPEG, "-e", "3"])
        try await CodecTools.run("djxl", [jxl.path, reference.path])
        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: jxl))
        #expect(header.width == 40 && header.height == 64 && header.orientation == .up)
        let image = try CodecTools.decode(jxl)
        // Turned 90° clockwise: the bottom-left (blue) quadrant comes to the top left.
        #expect(CodecTools.corners(image.bitmap) == ["b", "r", "g", "w"])
        try CodecTools.expectMatches(jxl, reference, tolerance: Self.tolerance)
    }

    /// A codestream written bit by bit from the spec (ISO/IEC 18181-1 SizeHeader and an
    /// all-default ImageMetadata) claiming 100 000 × 100 000 pixels and holding nothing more.
    static func bombCodestream() -> Data {
        var bits: [Bool] = []
        func write(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        write(0xFF, 8)
        write(0x0A, 8)  // signature
        write(0, 1)  // small: no
        write(2, 2)
        write(100_000 - 1, 18)  // height: U32 selector 2 = Bits(18) + 1
        write(0, 3)  // ratio 0: width follows
        write(2, 2)
        write(100_000 - 1, 18)  // width
        write(1, 1)  // ImageMetadata all_default
        write(1, 1)  // CustomTransformData all_default
        while bits.count % 8 != 0 { bits.append(false) }
        var bytes = stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 | (bits[start + $1] ? 1 << $1 : 0) }
        }
        bytes += [UInt8](repeating: 0, count: 16)
        return Data(bytes)
    }

    @Test(
        "Truncated, corrupt and bomb JPEG XL fail with typed errors", .enabled(if: CodecTools.available("cjxl"), CodecTools.missing("cjxl"))
    )
    func badInput() async throws {
        let registry = ImageDecoderRegistry.standard
        #expect(
            thrownImageError { _ = try registry.decode(Self.bombCodestream()) }
                == .overLimit(.pixels(width: 100_000, height: 100_000, limit: DecodingLimits.default.maxPixels)))

        let directory = try CodecTools.directory("jxl-bad")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 67, height: 45, alpha: true), to: source)
        let jxl = directory.appendingPathComponent("image.jxl")
        try await CodecTools.run("cjxl", [source.path, jxl.path, "-d", "1", "-e", "3"])
        let data = try Data(contentsOf: jxl)
        for length in stride(from: 2, to: data.count, by: max(1, data.count / 40)) {
            #expect(thrownImageError { _ = try registry.decode(data.prefix(length)) } != nil, "prefix \(length)")
        }
        var corrupt = data
        for offset in stride(from: data.count / 2, to: data.count, by: 5) { corrupt[offset] ^= 0x5A }
        _ = thrownImageError { _ = try registry.decode(corrupt) }
    }
}
#endif
