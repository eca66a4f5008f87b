#if os(Linux)
import Foundation
import Testing
@testable import Iris

/// Grey images (one channel) through the lossless modes of cjxl and avifenc: libjxl and libavif
/// expand them to RGBA for Iris, and the result is the grey picture exactly.
@Suite("Grey AVIF and JPEG XL")
struct GreyInputTests {
    @Test(
        "Lossless grey decodes to the same levels",
        .enabled(if: CodecTools.available("cjxl", "avifenc"), CodecTools.missing("cjxl", "avifenc")),
        arguments: ["jxl", "avif"])
    func grey(format: String) async throws {
        let directory = try CodecTools.directory("grey-\(format)")
        var picture = Bitmap(width: 37, height: 23, format: .gray8)
        for y in 0..<23 {
            for x in 0..<37 {
                let level = UInt8((x * 7 + y * 3) % 256)
                picture.setRGBA(RGBA(r: level, g: level, b: level), x: x, y: y)
            }
        }
        let source = directory.appendingPathComponent("grey.png")
        try CodecTools.writePNG(picture, to: source)
        let file = directory.appendingPathComponent("grey.\(format)")
        if format == "jxl" {
            try await CodecTools.run("cjxl", [source.path, file.path, "-d", "0", "-e", "3"])
        } else {
            try await CodecTools.run("avifenc", ["-l", "-s", "10", source.path, file.path])
        }
        let decoded = try CodecTools.decode(file).bitmap
        #expect(decoded.size == picture.size && !decoded.format.hasAlpha)
        #expect(CodecTools.maxDifference(decoded, try CodecTools.decode(source).bitmap).difference == 0)
    }
}
#endif
