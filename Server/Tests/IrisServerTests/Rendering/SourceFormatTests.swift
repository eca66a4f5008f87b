import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import Testing

/// Sources imgproxy reads that Iris reads through Debian's libraries (TIFF with libtiff, BMP and
/// ICO with gdk-pixbuf and PNG), written by ImageMagick (SVG: SVGSourceTests).
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/convert"),
        "SKIPPED: convert not installed; run scripts/install-deps (imagemagick)"))
struct SourceFormatTests {
    /// The 400×300 red-over-blue picture, converted by ImageMagick to `name`'s format (`BMP3:`
    /// and the like select a variant).
    static func converted(_ name: String, _ arguments: [String] = []) async throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iris-server-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.png")
        try TestImages.halves().write(to: source)
        let parts = name.split(separator: ":").map(String.init)
        let output = folder.appendingPathComponent(parts.last!)
        let status = try await runTool(
            "/usr/bin/convert", [source.path] + arguments + [parts.count == 2 ? "\(parts[0]):\(output.path)" : output.path])
        try #require(status == 0, "convert failed (\(status))")
        return try Data(contentsOf: output)
    }

    func get(_ options: [String], file: String, data: Data, extension ext: String = "png") async throws -> TestResponse {
        let files = SourceFiles()
        files[file] = data
        return try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                try await client.get(Harness.path(options, source: "\(base)/f/\(file)", extension: ext))
            }
        }
    }

    @Test(
        "TIFF, BMP and ICO sources are resized like any other",
        arguments: [
            ("image.tif", ["-compress", "lzw"]), ("v5.bmp", []), ("BMP3:v3.bmp", []),
            ("icon.ico", ["-resize", "64x48!", "-define", "icon:auto-resize=16,48"]),
        ] as [(String, [String])])
    func readFormats(name: String, arguments: [String]) async throws {
        let data = try await Self.converted(name, arguments)
        let file = name.split(separator: ":").last.map(String.init)!
        let response = try await get(["rs:fit:40:40"], file: file, data: data)
        #expect(response.status == .ok, "\(response.text)")
        let image = try TestImages.decode(response.data)
        // 400×300 (or the icon's 48×48, stretched from 64×48) fitted in 40×40.
        #expect(image.bitmap.size == (file.hasSuffix("ico") ? PixelSize(width: 40, height: 40) : PixelSize(width: 40, height: 30)))
        // Red over blue, whichever the format.
        let top = image.bitmap.rgba(x: 20, y: 2), bottom = image.bitmap.rgba(x: 20, y: image.bitmap.height - 3)
        #expect(top.r > 150 && top.b < 100 && bottom.b > 150 && bottom.r < 100, "\(file): \(top) over \(bottom)")
    }

    @Test("A cut TIFF is a 422 naming the format, never a crash")
    func truncatedTIFF() async throws {
        let data = try await Self.converted("image.tif", ["-compress", "none"])
        let response = try await get(["rs:fit:40:40"], file: "cut.tif", data: data.prefix(data.count / 2))
        #expect(response.status.code == 422 && response.text.contains("TIFF"), "\(response.status) \(response.text)")
    }

    /// ImageMagick writes the 256-pixel image as PNG (a Vista icon), the others as bitmaps: the
    /// largest is served, as imgproxy serves it.
    @Test("An icon whose largest image is PNG-compressed is served from that image")
    func iconWithPNGImage() async throws {
        let data = try await Self.converted("icon.ico", ["-resize", "256x192!", "-define", "icon:auto-resize=16,256,48"])
        let response = try await get(["rs:fit:100:100"], file: "icon.ico", data: data)
        #expect(response.status == .ok, "\(response.text)")
        let image = try TestImages.decode(response.data)
        #expect(image.bitmap.size == PixelSize(width: 100, height: 100))
        let top = image.bitmap.rgba(x: 50, y: 5), bottom = image.bitmap.rgba(x: 50, y: 94)
        #expect(top.r > 200 && top.b < 50 && bottom.b > 200 && bottom.r < 50, "\(top) over \(bottom)")
    }

    /// The halves tagged Adobe RGB (1998) by ImageMagick: the served PNG is sRGB, the pure red
    /// and blue of the source's numbers moved as Little CMS moves them (ImageMagick's own
    /// `-profile sRGB.icc` conversion of the same file is the reference).
    @Test("A TIFF with an embedded ICC profile is served in sRGB")
    func tiffWithProfile() async throws {
        let colord = "/usr/share/color/icc/colord/"
        let data = try await Self.converted("adobe.tif", ["-profile", colord + "AdobeRGB1998.icc", "-compress", "lzw"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iris-server-tiff-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = folder.appendingPathComponent("adobe.tif"), reference = folder.appendingPathComponent("srgb.png")
        try data.write(to: tiff)
        let status = try await runTool(
            "/usr/bin/convert", [tiff.path, "-profile", colord + "sRGB.icc", "-strip", "PNG24:" + reference.path])
        try #require(status == 0)
        let response = try await get(["rs:fit:400:300"], file: "adobe.tif", data: data)
        #expect(response.status == .ok, "\(response.text)")
        let served = try TestImages.decode(response.data).bitmap
        let theirs = try TestImages.decode(Data(contentsOf: reference)).bitmap
        #expect(served.size == theirs.size)
        var worst = 0
        for (x, y) in [(10, 10), (200, 75), (390, 140), (10, 160), (200, 225), (390, 290)] {
            let p = served.rgba(x: x, y: y), q = theirs.rgba(x: x, y: y)
            worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
        }
        #expect(worst <= 3, "differs from Little CMS's sRGB by \(worst)")
        // Not a test of nothing: the source's 20s (Adobe RGB's gamma 2.2) are darker in sRGB.
        let blue = served.rgba(x: 200, y: 225)
        #expect(Int(blue.r) <= 15 && Int(blue.g) <= 15, "\(blue)")
    }
}
