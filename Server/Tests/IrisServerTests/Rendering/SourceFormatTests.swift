import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import Testing

/// Sources imgproxy reads that Iris reads through Debian's libraries (TIFF with libtiff, BMP and
/// ICO with gdk-pixbuf), written by ImageMagick; and SVG, which the service refuses.
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

    /// SVG is neither rasterised nor passed through, `raw` included.
    @Test("An SVG source is a 415 saying SVG is not served", arguments: [["rs:fit:40:40"], ["raw:1"]])
    func svgIsRefused(options: [String]) async throws {
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>"#.utf8)
        let response = try await get(options, file: "x.svg", data: svg)
        #expect(response.status.code == 415, "\(response.status) \(response.text)")
        #expect(response.text.contains("SVG sources are not served"), "\(response.text)")
    }
}
