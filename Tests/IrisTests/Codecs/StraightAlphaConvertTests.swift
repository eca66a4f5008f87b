#if canImport(CPNG) && canImport(CWebP)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// `iris convert` writes the colour a PNG or WebP stored under soft alpha, not that colour
/// rounded through premultiplication: decoders keep straight alpha for it and the encoders
/// write it as it is.
@Suite("Straight alpha through convert")
struct StraightAlphaConvertTests {
    static let size = PixelSize(width: 24, height: 16)

    /// Straight RGBA bytes: random colours under every alpha from 0 to 255 (nearly transparent
    /// ones included, where premultiplying loses the most).
    static func pixels() -> [UInt8] {
        var random = SplitMix(seed: 77)
        return (0..<size.pixelCount).flatMap { index -> [UInt8] in
            [random.byte(), random.byte(), random.byte(), UInt8(index % 256)]
        }
    }

    /// A PNG of `pixels()` written by libpng (through ``PNGWriter``).
    static func png() throws -> Data {
        let bytes = pixels(), rowBytes = size.width * 4
        let rows = (0..<size.height).map { Array(bytes[($0 * rowBytes)..<(($0 + 1) * rowBytes)]) }
        return try PNGWriter.write(width: size.width, height: size.height, colorType: .rgba, bitDepth: 8, rows: rows)
    }

    /// A lossless WebP of `pixels()` written by libwebp (through the WebP encoder, from a
    /// straight-alpha bitmap).
    static func webp() throws -> Data {
        let bitmap = try #require(Bitmap(width: size.width, height: size.height, format: .rgba8, pixels: pixels())).markedStraight()
        return try WebPEncoder().encode(bitmap, options: EncodeOptions(lossless: true))
    }

    /// The straight RGBA bytes of the image in `file`.
    static func straightPixels(_ file: URL) throws -> [UInt8] {
        var registry = ImageDecoderRegistry.standard
        registry.keepsStraightAlpha = true
        let bitmap = try registry.decode(contentsOf: file).bitmap
        #expect(bitmap.format == .rgba8 && !bitmap.isPremultiplied)
        return tightBytes(bitmap)
    }

    /// The largest difference of a colour byte between `a` and `b`.
    static func worstColourDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).enumerated().filter { $0.offset % 4 != 3 }.map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 0
    }

    @Test("the inputs are written as stored, and premultiplied storage would change them by more than 100 levels")
    func inputs() throws {
        let directory = try CLITestSupport.directory("straight-inputs")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in [("in.png", try Self.png()), ("in.webp", try Self.webp())] {
            let file = directory.appendingPathComponent(name)
            try data.write(to: file)
            expectSameBytes(try Self.straightPixels(file), Self.pixels(), name)
            // What a premultiplied decode keeps: the colour of a pixel of alpha 0 is gone, of
            // alpha 1 rounded to 0 or 255.
            let premultiplied = try ImageDecoderRegistry.standard.decode(contentsOf: file).bitmap
            #expect(premultiplied.isPremultiplied)
            let worst = Self.worstColourDifference(Self.unpremultipliedBytes(premultiplied), Self.pixels())
            #expect(worst > 100, "\(name): premultiplied storage changes colour by \(worst)")
        }
    }

    /// The straight bytes of a premultiplied bitmap (what an encoder writes of it).
    static func unpremultipliedBytes(_ bitmap: Bitmap) -> [UInt8] {
        var bytes = tightBytes(bitmap)
        bytes.withUnsafeMutableBytes { PixelConversion.unpremultiplyRGBA($0, pixelCount: bitmap.width * bitmap.height) }
        return bytes
    }

    /// The pixel bytes of `bitmap` row after row, without padding.
    static func tightBytes(_ bitmap: Bitmap) -> [UInt8] {
        let rowBytes = bitmap.width * bitmap.format.bytesPerPixel
        return bitmap.withUnsafeBytes { raw in
            (0..<bitmap.height).flatMap { y in Array(raw[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + rowBytes)]) }
        }
    }

    @Test(
        "convert PNG → PNG, PNG → WebP, WebP → WebP and WebP → PNG keeps every RGBA byte",
        arguments: [
            ("in.png", "out.png"), ("in.png", "out.webp"), ("in.webp", "out.webp"), ("in.webp", "out.png"),
        ])
    func convertKeepsStoredColour(input: String, output: String) async throws {
        let directory = try CLITestSupport.directory("straight-convert")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent(input), target = directory.appendingPathComponent(output)
        try (input.hasSuffix(".png") ? Self.png() : Self.webp()).write(to: source)
        let run = try await CodecCommandRun.iris(["convert", "--lossless", source.path, target.path])
        #expect(run.status == 0, "\(run.standardError)")
        let written = try Self.straightPixels(target)
        expectSameBytes(written, Self.pixels(), "\(input) → \(output)")
        #expect(CRC32.checksum(written) == CRC32.checksum(Self.pixels()))
    }

    @Test("a straight bitmap is premultiplied for JPEG (flattened) and for resampling-free conversions between layouts")
    func straightBitmapConversions() throws {
        let straight = try #require(Bitmap(width: Self.size.width, height: Self.size.height, format: .rgba8, pixels: Self.pixels()))
            .markedStraight()
        let premultiplied = straight.premultiplied()
        #expect(premultiplied.isPremultiplied && !straight.isPremultiplied && premultiplied != straight)
        expectSameBytes(straight.flattened(over: RGBA(r: 9, g: 9, b: 9)), premultiplied.flattened(over: RGBA(r: 9, g: 9, b: 9)))
        let blueFirst = straight.converted(to: .bgra8)
        #expect(!blueFirst.isPremultiplied && blueFirst.rgba(x: 5, y: 3) == straight.rgba(x: 5, y: 3))
        #expect(!straight.oriented(.right).isPremultiplied)
    }
}
#endif
