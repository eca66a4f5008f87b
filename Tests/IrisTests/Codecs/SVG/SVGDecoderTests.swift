#if canImport(CRsvg)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SVG through librsvg: intrinsic sizes as libvips reads them, drawn at the output size, nothing
/// outside the document fetched, bad and hostile documents typed errors.
@Suite("SVG decoding (librsvg)")
struct SVGDecoderTests {
    /// A document of `body` with the given attributes on its root.
    static func svg(_ attributes: String, _ body: String) -> Data {
        Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \(attributes)>\(body)</svg>
            """.utf8)
    }

    /// Red on the left half of 200×100 user units, blue on the right.
    static let halves = ##"<rect width="100" height="100" fill="#ff0000"/><rect x="100" width="100" height="100" fill="#0000ff"/>"##

    @Test(
        "The intrinsic size: width and height, else the viewBox, else what is drawn",
        arguments: [
            (#"width="200" height="100""#, 200, 100),
            (#"width="2in" height="1in""#, 180, 90),  // librsvg's 90 dpi
            (#"viewBox="0 0 300 150""#, 300, 150),
            (#"width="100%" height="100%" viewBox="0 0 64 32""#, 64, 32),
            ("", 200, 100),  // no size, no viewBox: the extent of the rectangles
            (#"width="10.2" height="4.5""#, 11, 5),  // rounded up
        ] as [(String, Int, Int)])
    func intrinsicSize(attributes: String, width: Int, height: Int) throws {
        let header = try ImageDecoderRegistry.standard.header(of: Self.svg(attributes, Self.halves))
        #expect(header.format == .svg && header.width == width && header.height == height && header.hasAlpha)
    }

    @Test("Drawn at the output size: colours where the document puts them, premultiplied, transparent elsewhere")
    func pixels() throws {
        let data = Self.svg(
            #"width="200" height="100""#, Self.halves + ##"<circle cx="50" cy="50" r="20" fill="#00ff00" fill-opacity="0.5"/>"##)
        let image = try ImageDecoderRegistry.standard.decode(data)
        #expect(image.format == .svg && image.bitmap.size == PixelSize(width: 200, height: 100))
        #expect(image.bitmap.format == .rgba8 && image.bitmap.isPremultiplied)
        let red = image.bitmap.rgba(x: 10, y: 10), blue = image.bitmap.rgba(x: 190, y: 90), mixed = image.bitmap.rgba(x: 50, y: 50)
        #expect(red.r == 255 && red.g == 0 && red.b == 0 && red.a == 255)
        #expect(blue.r == 0 && blue.g == 0 && blue.b == 255 && blue.a == 255)
        #expect(abs(Int(mixed.r) - 128) <= 1 && abs(Int(mixed.g) - 128) <= 1 && mixed.b == 0 && mixed.a == 255)

        // Shrunk by the target: the same picture at 40×20, edges where they belong.
        let small = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
        #expect(small.bitmap.size == PixelSize(width: 40, height: 20))
        #expect(small.bitmap.rgba(x: 1, y: 1).r == 255 && small.bitmap.rgba(x: 38, y: 18).b == 255)
        #expect(small.bitmap.rgba(x: 19, y: 1).r == 255 && small.bitmap.rgba(x: 20, y: 1).b == 255)

        // A document smaller than its shape leaves the rest transparent.
        let partial = try ImageDecoderRegistry.standard.decode(
            Self.svg(#"width="20" height="20""#, #"<rect width="10" height="20" fill="red"/>"#))
        #expect(partial.bitmap.rgba(x: 15, y: 10).a == 0 && partial.bitmap.rgba(x: 5, y: 10).a == 255)
    }

    /// A 40 000-pixel square drawn at 100: within limits that its full size would break many
    /// times over (6.4 GB at full size), so it was never rasterised larger than asked.
    @Test("A vector is drawn at the target, never at its intrinsic size; the limits judge the output")
    func drawnAtTarget() throws {
        let data = Self.svg(
            #"width="40000" height="40000" viewBox="0 0 2 2""#,
            #"<rect width="1" height="2" fill="red"/><rect x="1" width="1" height="2" fill="blue"/>"#)
        let limits = DecodingLimits(maxPixels: 1 << 20, maxDecodedBytes: 1 << 22)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.width == 40000 && header.height == 40000)
        let image = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: 100, height: 100), limits: limits))
        #expect(image.bitmap.size == PixelSize(width: 100, height: 100))
        #expect(image.bitmap.rgba(x: 49, y: 50).r == 255 && image.bitmap.rgba(x: 50, y: 50).b == 255)
        #expect(image.sourceSize == PixelSize(width: 40000, height: 40000))
        // At its own size: the output is over the limits, refused before anything is drawn.
        let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(limits: limits)) }
        guard case .overLimit? = error else {
            Issue.record("expected over a limit, got \(String(describing: error))")
            return
        }
    }

    /// A red PNG next to the test's files and on a loopback server: referenced by absolute
    /// `file:` and `http:` URLs and by a relative one, none is read (the server counts).
    @Test("References to files and URLs are never fetched")
    func externalReferences() async throws {
        let directory = try CodecTools.directory("svg-references")
        let red = directory.appendingPathComponent("red.png")
        try CodecTools.writePNG(Self.red, to: red)
        try await withTestServer { server in
            server.serve("/red.png", data: try Data(contentsOf: red), contentType: "image/png")
            let data = Self.svg(
                #"width="60" height="20""#,
                """
                <image href="\(red.absoluteString)" width="20" height="20"/>
                <image xlink:href="\(server.url("/red.png").absoluteString)" x="20" width="20" height="20"/>
                <image href="red.png" x="40" width="20" height="20"/>
                <rect width="60" height="20" fill="url(\(server.url("/pattern.svg").absoluteString)#p)"/>
                <style>@import url("\(server.url("/style.css").absoluteString)");</style>
                """)
            let image = try ImageDecoderRegistry.standard.decode(data)
            #expect(image.bitmap.size == PixelSize(width: 60, height: 20))
            for x in [10, 30, 50] { #expect(image.bitmap.rgba(x: x, y: 10).a == 0, "x \(x)") }
            #expect(server.totalRequestCount == 0, "\(server.requestLog)")
            // The server counts: the same URL fetched here is one request.
            _ = try await URLSession.shared.data(from: server.url("/red.png"))
            #expect(server.requestCount("/red.png") == 1)
        }
    }

    /// An 8×8 opaque red bitmap.
    static let red = Bitmap(width: 8, height: 8, format: .rgba8, pixels: Array(repeating: [255, 0, 0, 255], count: 64).flatMap { $0 })!

    /// Ten `<use>` of the level below, 19 levels deep: 10^19 rectangles if drawn. librsvg stops
    /// at its limit of referenced elements (500 000 in 2.54), a bounded amount of work.
    @Test("A <use> bomb stops at librsvg's element limit with a typed error")
    func useBomb() throws {
        var body = #"<g id="l0"><rect width="1" height="1"/></g>"#
        for level in 1..<20 {
            body += #"<g id="l\#(level)">"# + String(repeating: ##"<use href="#l\##(level - 1)"/>"##, count: 10) + "</g>"
        }
        body += ##"<use href="#l19"/>"##
        let data = Self.svg(#"width="10" height="10""#, body)
        let clock = ContinuousClock()
        let started = clock.now
        let error = thrownImageError {
            _ = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 10, height: 10)))
        }
        guard case .decodingFailed(.svg, let reason)? = error else {
            Issue.record("expected an SVG decoding failure, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("elements"), "\(reason)")
        // A hang detector only.
        #expect(started.duration(to: clock.now) < .seconds(300))
    }

    @Test("An entity bomb (billion laughs), cut, empty and non-SVG documents are typed errors")
    func badDocuments() throws {
        var bomb = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">"#
        for (level, previous) in zip("bcdefghij", "abcdefghi") {
            bomb += "<!ENTITY \(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        bomb += #"]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&j;</text></svg>"#
        let clock = ContinuousClock()
        let started = clock.now
        let bombError = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(Data(bomb.utf8)) }
        guard case .decodingFailed(.svg, let reason)? = bombError else {
            Issue.record("expected an SVG decoding failure, got \(String(describing: bombError))")
            return
        }
        #expect(reason.contains("librsvg"))
        // A hang detector only: the parser stops at the loop, it does not expand it.
        #expect(started.duration(to: clock.now) < .seconds(30))

        let whole = Self.svg(#"width="10" height="10""#, #"<rect width="5" height="5"/>"#)
        for cut in [20, whole.count / 2, whole.count - 3] {
            let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(whole.prefix(cut)) }
            switch error {
            case .truncated(.svg, _, _)?, .decodingFailed(.svg, _)?: break
            default: Issue.record("cut at \(cut): \(String(describing: error))")
            }
        }
        let cutError = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(whole.prefix(whole.count / 2)) }
        guard case .truncated(.svg, _, _)? = cutError else {
            Issue.record("expected a truncation, got \(String(describing: cutError))")
            return
        }
        // Recognised as SVG (it says `<svg`) but nothing to draw and no size.
        let empty = thrownImageError {
            _ = try ImageDecoderRegistry.standard.decode(Data(#"<svg xmlns="http://www.w3.org/2000/svg"></svg>"#.utf8))
        }
        guard case .decodingFailed(.svg, let emptyReason)? = empty else {
            Issue.record("expected an SVG decoding failure, got \(String(describing: empty))")
            return
        }
        #expect(emptyReason.contains("no size"))
        // XML that is not SVG, sniffed as SVG by a comment.
        let notSVG = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(Data("<!-- <svg --><html></html>".utf8)) }
        #expect(notSVG != nil)
    }
}
#endif
