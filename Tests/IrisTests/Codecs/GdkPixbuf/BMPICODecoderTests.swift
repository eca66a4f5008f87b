#if canImport(CGdkPixbuf)
import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

/// BMP and ICO through gdk-pixbuf: files written by ImageMagick, compared with ImageMagick's
/// decode of the same file (a PNG read by Iris's PNG decoder). Bad files give typed errors.
@Suite("BMP and ICO decoding (gdk-pixbuf)")
struct BMPICODecoderTests {
    static let tools = CodecTools.available("convert")
    static let missing = Comment(rawValue: "SKIPPED: convert not installed; run scripts/install-deps (imagemagick)")

    /// `output` written by ImageMagick from the test picture with `arguments`, and ImageMagick's
    /// decode of `output[frame]` as a PNG.
    static func make(
        _ label: String, _ output: String, width: Int = 67, height: Int = 45, alpha: Bool = false,
        _ arguments: [String] = [], frame: Int = 0
    ) async throws -> (file: URL, reference: URL) {
        let directory = try CodecTools.directory(label)
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: width, height: height, alpha: alpha), to: source)
        let file = directory.appendingPathComponent(output.split(separator: ":").last.map(String.init) ?? output)
        let reference = directory.appendingPathComponent("reference.png")
        try await CodecTools.run(
            "convert", [source.path] + arguments + [output.contains(":") ? "\(output.split(separator: ":")[0]):\(file.path)" : file.path])
        try await CodecTools.run("convert", ["\(file.path)[\(frame)]", "PNG32:" + reference.path])
        return (file, reference)
    }

    @Test(
        "BMP header versions, depths and RLE match ImageMagick's decode", .enabled(if: tools, missing),
        arguments: [
            ("BMP:v5.bmp", false, [String]()),  // ImageMagick's default: a V5 header
            ("BMP3:v3.bmp", false, []),
            ("BMP2:os2.bmp", false, []),  // OS/2 1.x core header
            ("BMP:alpha.bmp", true, []),  // 32 bits, V5 with an alpha mask
            ("BMP3:palette.bmp", false, ["-colors", "200", "-type", "palette"]),
            ("BMP3:rle8.bmp", false, ["-colors", "60", "-type", "palette", "-compress", "rle"]),
            ("BMP3:mono.bmp", false, ["-monochrome"]),
        ] as [(String, Bool, [String])])
    func bmp(output: String, alpha: Bool, arguments: [String]) async throws {
        let (file, reference) = try await Self.make("bmp", output, alpha: alpha, arguments)
        let data = try Data(contentsOf: file)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.format == .bmp && header.width == 67 && header.height == 45)
        let image = try CodecTools.decode(file)
        #expect(image.format == .bmp && image.bitmap.format.hasAlpha == alpha)
        try CodecTools.expectMatches(file, reference, tolerance: 1)
        try CodecTools.expectMatches(file, reference, tolerance: 1, options: DecodeOptions(target: DecodeTarget(width: 24, height: 24)))
    }

    @Test("An icon shows its largest bitmap image, with its mask as transparency", .enabled(if: tools, missing))
    func icon() async throws {
        // ImageMagick writes the sizes in this order: the 48-pixel image is the third.
        let (file, reference) = try await Self.make(
            "ico", "icon.ico", width: 64, height: 64, alpha: true,
            ["-define", "icon:auto-resize=16,32,48"], frame: 2)
        let data = try Data(contentsOf: file)
        #expect(FormatSniffer.format(of: data) == .ico)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.format == .ico && header.width == 48 && header.height == 48 && header.hasAlpha)
        let image = try CodecTools.decode(file)
        #expect(image.format == .ico && image.bitmap.size == PixelSize(width: 48, height: 48) && image.bitmap.format.hasAlpha)
        try CodecTools.expectMatches(file, reference, tolerance: 1)
        let small = try CodecTools.decode(file, options: DecodeOptions(target: DecodeTarget(width: 20, height: 20)))
        #expect(small.bitmap.size == PixelSize(width: 20, height: 20))
        let theirs = try CodecTools.decode(reference, options: DecodeOptions(target: DecodeTarget(width: 20, height: 20))).bitmap
        #expect(CodecTools.maxDifference(small.bitmap, theirs).difference <= 1)
    }

    /// ImageMagick writes a 256-pixel image as PNG (as Vista icons have it); gdk-pixbuf reads only
    /// bitmap images, so the PNG decoder reads it. The largest image is shown, as imgproxy does.
    @Test("The largest image is shown when it is PNG-compressed, alone or with bitmap ones", .enabled(if: tools, missing))
    func pngImages() async throws {
        for sizes in ["256,48,16", "256", "16,256,32"] {
            let (icon, reference) = try await Self.make(
                "ico-png", "icon.ico", width: 300, height: 300, alpha: true, ["-define", "icon:auto-resize=\(sizes)"],
                frame: sizes.split(separator: ",").firstIndex(of: "256")!)
            let data = try Data(contentsOf: icon)
            let header = try ImageDecoderRegistry.standard.header(of: data)
            #expect(header.format == .ico && header.width == 256 && header.height == 256 && header.hasAlpha, "\(sizes)")
            let image = try ImageDecoderRegistry.standard.decode(data)
            #expect(image.format == .ico && image.bitmap.size == PixelSize(width: 256, height: 256), "\(sizes)")
            try CodecTools.expectMatches(icon, reference, tolerance: 1)
            try CodecTools.expectMatches(icon, reference, tolerance: 1, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
        }
        // Cut inside the PNG image: a truncated icon, at full size and at a target.
        let (icon, _) = try await Self.make("ico-png-cut", "icon.ico", width: 300, height: 300, ["-define", "icon:auto-resize=16,256"])
        var data = try Data(contentsOf: icon)
        // The directory's second entry (the PNG one; its length at bytes 30-33) claims half its bytes.
        let length = UInt32(data[30]) | UInt32(data[31]) << 8 | UInt32(data[32]) << 16 | UInt32(data[33]) << 24
        let shorter = length / 2
        data.replaceSubrange(
            30..<34, with: [UInt8(shorter & 0xFF), UInt8(shorter >> 8 & 0xFF), UInt8(shorter >> 16 & 0xFF), UInt8(shorter >> 24)])
        for target in [nil, DecodeTarget(width: 16, height: 16)] {
            let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: target)) }
            switch error {
            case .truncated(.ico, _, _)?, .decodingFailed(.ico, _)?: break
            default: Issue.record("a cut PNG image: \(String(describing: error))")
            }
        }
    }

    @Test("An icon of several bitmap sizes shows the largest, wherever it is in the directory", .enabled(if: tools, missing))
    func largestBitmap() async throws {
        let (icon, reference) = try await Self.make(
            "ico-sizes", "icon.ico", width: 64, height: 64, alpha: true, ["-define", "icon:auto-resize=32,64,16"], frame: 1)
        let header = try ImageDecoderRegistry.standard.header(of: Data(contentsOf: icon))
        #expect(header.width == 64 && header.height == 64)
        try CodecTools.expectMatches(icon, reference, tolerance: 1)
    }

    /// The libraries are opened by whichever decode comes first; gdk-pixbuf's loaders and
    /// libtiff's files are each one decode's own.
    @Test("Concurrent decodes of BMP, ICO and TIFF give the same pixels", .enabled(if: tools, missing))
    func concurrent() async throws {
        let files = [
            try await Self.make("concurrent", "BMP:a.bmp", width: 120, height: 90).file,
            try await Self.make("concurrent", "b.ico", width: 64, height: 64, alpha: true, ["-define", "icon:auto-resize=32,48"]).file,
            try await Self.make("concurrent", "c.tif", width: 120, height: 90, alpha: true, ["-compress", "lzw"]).file,
        ]
        let inputs = try files.map { try Data(contentsOf: $0) }
        func checksum(_ data: Data) throws -> UInt32 {
            let bitmap = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
                .bitmap
            return bitmap.withUnsafeBytes { CRC32.checksum($0) }
        }
        let expected = try inputs.map(checksum)
        let results = try await withThrowingTaskGroup(of: (Int, UInt32).self) { group in
            for round in 0..<24 {
                let index = round % inputs.count
                let data = inputs[index]
                group.addTask { (index, try checksum(data)) }
            }
            return try await group.reduce(into: [(Int, UInt32)]()) { $0.append($1) }
        }
        #expect(results.count == 24)
        for (index, sum) in results { #expect(sum == expected[index], "\(files[index].lastPathComponent)") }
    }

    @Test(
        "Cut files are truncated errors, at full size and at a target", .enabled(if: tools, missing),
        arguments: ["BMP:cut.bmp", "BMP3:cut.bmp", "cut.ico"])
    func truncated(output: String) async throws {
        let (file, _) = try await Self.make(
            "cut", output, width: 64, height: 48, alpha: output.hasSuffix("ico"),
            output.hasSuffix("ico") ? ["-define", "icon:auto-resize=16,48"] : [])
        let data = try Data(contentsOf: file)
        let format: ImageFormat = output.hasSuffix("ico") ? .ico : .bmp
        // (An icon needs 22 bytes to be recognised as one.)
        for cut in [26, 40, data.count / 3, data.count / 2, data.count - 1] {
            for target in [nil, DecodeTarget(width: 16, height: 16)] {
                let error = thrownImageError {
                    _ = try ImageDecoderRegistry.standard.decode(data.prefix(cut), options: DecodeOptions(target: target))
                }
                switch error {
                case .truncated(format, cut, _)?: break
                default: Issue.record("\(output) cut at \(cut) of \(data.count): \(String(describing: error))")
                }
            }
        }
    }

    @Test("A BMP claiming a size over the limits is refused before gdk-pixbuf allocates it", .enabled(if: tools, missing))
    func overLimit() async throws {
        let (file, _) = try await Self.make("bmp-limits", "BMP3:big.bmp", width: 8, height: 8)
        var data = try Data(contentsOf: file)
        // BITMAPINFOHEADER: width at 18, height at 22, little-endian.
        data.replaceSubrange(18..<26, with: [0x40, 0x0D, 0x03, 0x00, 0xE0, 0x93, 0x04, 0x00])  // 200 000 × 300 000
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.width == 200_000 && header.height == 300_000)
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data) }
        guard case .overLimit(.pixels(200_000, 300_000, _))? = error else {
            Issue.record("expected over the pixel limit, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "Corrupt headers and pixels give typed errors, never a crash", .enabled(if: tools, missing),
        arguments: ["BMP3:flip.bmp", "BMP3:rle.bmp", "flip.ico"])
    func corrupt(output: String) async throws {
        let arguments = output.contains("rle") ? ["-colors", "30", "-type", "palette", "-compress", "rle"] : []
        let (file, _) = try await Self.make("corrupt", output, width: 40, height: 30, arguments)
        let data = try Data(contentsOf: file)
        var random = SplitMix(seed: UInt64(data.count))
        for _ in 0..<300 {
            var bad = data
            for _ in 0..<4 {
                bad[2 + Int(random.next() % UInt64(min(200, data.count - 2)))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do {
                // A flipped size byte may claim millions of pixels: within these limits, decoded.
                let options = DecodeOptions(target: DecodeTarget(width: 16, height: 16), limits: DecodingLimits(maxPixels: 1 << 20))
                let image = try ImageDecoderRegistry.standard.decode(bad, options: options)
                #expect(image.bitmap.width > 0)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        // Not a depth BMP defines: named as such.
        var depth = data
        depth[28] = 7
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(depth) }
        if output.hasSuffix("bmp") {
            guard case .decodingFailed(.bmp, let reason)? = error else {
                Issue.record("expected a BMP decoding failure, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("bits per pixel"))
        }
    }
}
#endif
