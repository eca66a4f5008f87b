#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// `iris info`, `convert` and `thumbnail` on AVIF, HEIC and JPEG XL files made by avifenc,
/// heif-enc and cjxl (opaque and with alpha), run as a child process.
@Suite("iris CLI on AVIF, HEIC, JPEG XL")
struct AVIFHEICJXLCommandTests {
    @Test(
        "info, convert and thumbnail",
        .enabled(if: CodecTools.available("avifenc", "heif-enc", "cjxl"), CodecTools.missing("avifenc", "heif-enc", "cjxl")),
        arguments: ["avif", "heic", "jxl"], [false, true])
    func commands(format: String, alpha: Bool) async throws {
        let directory = try CodecTools.directory("cli-\(format)")
        let source = directory.appendingPathComponent("source.png")
        let picture = CodecTools.picture(width: 301, height: 201, alpha: alpha)
        try CodecTools.writePNG(picture, to: source)
        let file = directory.appendingPathComponent("image.\(format)")
        switch format {
        case "avif": try await CodecTools.run("avifenc", ["-s", "10", source.path, file.path])
        case "heic": try await CodecTools.run("heif-enc", ["-q", "85", source.path, "-o", file.path])
        default: try await CodecTools.run("cjxl", [source.path, file.path, "-d", "1", "-e", "3"])
        }

        let info = try await CLITestSupport.runIris(["info", file.path])
        #expect(info.status == 0, "\(info.standardError)")

        let converted = directory.appendingPathComponent("converted.png")
        let convert = try await CLITestSupport.runIris(["convert", file.path, converted.path])
        #expect(convert.status == 0, "\(convert.standardError)")
        let back = try CodecTools.decode(converted).bitmap
        #expect(back.size == PixelSize(width: 301, height: 201) && back.format.hasAlpha == alpha)
        // What convert wrote is what Iris decodes from the file (PNG keeps straight alpha: the
        // round trip through it rounds premultiplied colour by up to 2 levels).
        let decoded = try CodecTools.decode(file).bitmap
        #expect(CodecTools.maxDifference(back, decoded).difference <= 2)

        let out = directory.appendingPathComponent("thumbs")
        let thumbnail = try await CLITestSupport.runIris(["thumbnail", "--size", "64", "--format", "png", "--out", out.path, file.path])
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        let thumb = try CodecTools.decode(out.appendingPathComponent("image.png")).bitmap
        #expect(thumb.size == PixelSize(width: 64, height: 43))
        if !alpha { #expect(CodecTools.corners(thumb) == ["r", "g", "w", "b"]) }
    }

    @Test("A bad file fails with its cause, exit status 1", .enabled(if: CodecTools.available("avifenc"), CodecTools.missing("avifenc")))
    func badFile() async throws {
        let directory = try CodecTools.directory("cli-bad")
        let source = directory.appendingPathComponent("source.png")
        try CodecTools.writePNG(CodecTools.picture(width: 64, height: 48, alpha: false), to: source)
        let file = directory.appendingPathComponent("image.avif")
        try await CodecTools.run("avifenc", ["-s", "10", source.path, file.path])
        let truncated = directory.appendingPathComponent("truncated.avif")
        try Data(contentsOf: file).prefix(200).write(to: truncated)
        let run = try await CLITestSupport.runIris(["convert", truncated.path, directory.appendingPathComponent("x.png").path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("AVIF"), "\(run.standardError)")
    }
}
#endif
