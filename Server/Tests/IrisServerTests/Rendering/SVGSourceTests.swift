import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import Testing

/// SVG sources: rasterised by librsvg at the size the result needs, to the result's format (PNG
/// when none is asked: never passed through, `raw` and `skip_processing` included); nothing a
/// document references is fetched; a hostile document is a 422.
@Suite struct SVGSourceTests {
    /// 200×100 user units (a viewBox, drawn at `width`×`height`): red on the left half, blue on
    /// the right; `extra` inside.
    static func halves(width: Int = 200, height: Int = 100, _ extra: String = "") -> Data {
        Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(width)" height="\(height)" \
            viewBox="0 0 200 100"><rect width="100" height="100" fill="#ff0000"/><rect x="100" width="100" height="100" fill="#0000ff"/>\
            \(extra)</svg>
            """.utf8)
    }

    func get(
        _ options: [String], _ data: Data, extension ext: String? = nil, accept: String? = nil,
        files: SourceFiles = SourceFiles()
    ) async throws -> TestResponse {
        files["image.svg"] = data
        return try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                var headers: HTTPFields = [:]
                if let accept { headers[.accept] = accept }
                return try await client.get(Harness.path(options, source: "\(base)/f/image.svg", extension: ext), headers: headers)
            }
        }
    }

    @Test(
        "fit and fill rasterise at the result's size",
        arguments: [
            (["rs:fit:50:50"], 50, 25),
            (["rs:fill:50:50"], 50, 50),
            (["rs:fit:1000:1000"], 200, 100),  // not enlarged (enlarge:0)
            (["w:40"], 40, 20),
        ] as [([String], Int, Int)])
    func resize(options: [String], width: Int, height: Int) async throws {
        let response = try await get(options, Self.halves(), extension: "png")
        #expect(response.status == .ok, "\(response.text)")
        let image = try TestImages.decode(response.data)
        #expect(image.format == .png && image.bitmap.size == PixelSize(width: width, height: height))
        let left = image.bitmap.rgba(x: 2, y: height / 2), right = image.bitmap.rgba(x: width - 3, y: height / 2)
        #expect(left.r > 240 && left.b < 15 && right.b > 240 && right.r < 15, "\(left) | \(right)")
    }

    /// A 20 000-pixel square, far over the service's source and result limits at its own size,
    /// drawn straight at 64.
    @Test("A huge intrinsic size is drawn at the result's size, not refused")
    func hugeIntrinsicSize() async throws {
        let response = try await get(["rs:fit:64:64"], Self.halves(width: 40000, height: 20000), extension: "png")
        #expect(response.status == .ok, "\(response.text)")
        #expect(try TestImages.decode(response.data).bitmap.size == PixelSize(width: 64, height: 32))
    }

    @Test(
        "The result's format: asked by extension, negotiated by Accept, PNG when neither",
        arguments: [
            ("png", nil, ImageFormat.png), ("jpg", nil, .jpeg), ("webp", nil, .webp), ("avif", nil, .avif),
            (nil, "image/webp,*/*", .webp), (nil, nil, .png),
        ] as [(String?, String?, ImageFormat)])
    func formats(ext: String?, accept: String?, format: ImageFormat) async throws {
        let response = try await get(["rs:fit:50:50"], Self.halves(), extension: ext, accept: accept)
        #expect(response.status == .ok, "\(response.text)")
        let image = try TestImages.decode(response.data)
        #expect(image.format == format && image.bitmap.size == PixelSize(width: 50, height: 25))
    }

    /// imgproxy would return these as SVG: the service has no sanitiser, so it rasterises.
    @Test("raw and skip_processing serve the rasterisation, never the document", arguments: [["raw:1"], ["skp:svg"]])
    func neverPassedThrough(options: [String]) async throws {
        let response = try await get(options, Self.halves(#"<script>alert(1)</script>"#))
        #expect(response.status == .ok, "\(response.text)")
        #expect(response.headers[.contentType] == "image/png")
        #expect(!response.text.contains("<script"))
        #expect(try TestImages.decode(response.data).bitmap.size == PixelSize(width: 200, height: 100))
    }

    /// The document points at a PNG on the same loopback server the source comes from (an
    /// address the service may fetch): it is not requested, and not drawn.
    @Test("An image the document references by URL is never fetched")
    func externalReference() async throws {
        let files = SourceFiles()
        files["green.png"] = try TestImages.encode(TestImages.bitmap(width: 8, height: 8) { _, _ in RGBA(r: 0, g: 255, b: 0) }, as: .png)
        let response = try await withSourceServer(files) { base in
            files["image.svg"] = Self.halves(
                #"<image href="\#(base)/f/green.png" width="200" height="100"/><image xlink:href="file:///etc/hostname" width="10" height="10"/>"#
            )
            return try await Harness.withService(Harness.configuration()) { client, _ in
                try await client.get(Harness.path(["rs:fit:50:50"], source: "\(base)/f/image.svg", extension: "png"))
            }
        }
        #expect(response.status == .ok, "\(response.text)")
        #expect(files.count("image.svg") == 1)
        #expect(files.count("green.png") == 0)
        let image = try TestImages.decode(response.data)
        let left = image.bitmap.rgba(x: 10, y: 12), right = image.bitmap.rgba(x: 40, y: 12)
        #expect(left.g < 15 && right.g < 15 && left.r > 240 && right.b > 240, "\(left) | \(right)")
    }

    @Test("An entity bomb and a cut document are 422s naming SVG, never a crash")
    func hostileDocuments() async throws {
        var bomb = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">"#
        for (level, previous) in zip("bcdefghij", "abcdefghi") {
            bomb += "<!ENTITY \(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        bomb += #"]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&j;</text></svg>"#
        let whole = Self.halves()
        for data in [Data(bomb.utf8), whole.prefix(whole.count / 2)] {
            let response = try await get(["rs:fit:50:50"], data, extension: "png")
            #expect(response.status.code == 422 && response.text.contains("SVG"), "\(response.status) \(response.text)")
        }
    }
}
