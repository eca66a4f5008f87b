import Foundation
import Testing
@testable import Iris
import IrisTestSupport

@Suite("Format sniffing")
struct FormatSnifferTests {
    static let riffSize: [UInt8] = [0x1A, 0, 0, 0]

    @Test(
        "magic bytes name each format",
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], ImageFormat.jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
            (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
            (Array("GIF87a".utf8) + [1, 0, 1, 0], .gif),
            (Array("RIFF".utf8) + riffSize + Array("WEBPVP8 ".utf8), .webp),
            (Array("RIFF".utf8) + riffSize + Array("WEBPVP8L".utf8), .webp),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic),
            ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heic),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], .avif),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 20), .bmp),
            (Array("II".utf8) + [0x2A, 0, 8, 0, 0, 0], .tiff),
            (Array("MM".utf8) + [0, 0x2A, 0, 0, 0, 8], .tiff),
            // ICONDIR (reserved 0, type 1, two images) and its first entry (16×16, 0 colours, reserved 0).
            ([0, 0, 1, 0, 2, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 4, 0, 0, 38, 0, 0, 0], .ico),
            // A cursor (type 2), and an icon directory listing no image: not icons.
            ([0, 0, 2, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 4, 0, 0, 22, 0, 0, 0], .unknown),
            ([0, 0, 1, 0, 0, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 4, 0, 0, 22, 0, 0, 0], .unknown),
            ([0xFF, 0x0A, 0xFA, 0x7F], .jpegXL),
            ([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jpegXL),
            (Array("%PDF-1.7\n".utf8), .pdf),
            (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            (Array("  \n<!DOCTYPE html><html></html>".utf8), .html),
            (Array("<HTML><BODY>502 Bad Gateway</BODY></HTML>".utf8), .html),
            ([0xEF, 0xBB, 0xBF] + Array("<!doctype html>".utf8), .html),
            (Array("{\"error\":\"nope\"}".utf8), .json),
            ([0x00, 0x01, 0x02, 0x03, 0x04], .unknown),
            ([], .unknown),
        ] as [([UInt8], ImageFormat)])
    func sniff(bytes: [UInt8], format: ImageFormat) {
        #expect(FormatSniffer.format(of: Data(bytes)) == format)
    }

    @Test("WebP kinds and the animation flag are read from the header")
    func webPDetails() {
        let lossy = FormatSniffer.sniff(Data(Array("RIFF".utf8) + Self.riffSize + Array("WEBPVP8 ".utf8)))
        #expect(lossy.webPKind == .lossy && !lossy.isAnimated)
        let lossless = FormatSniffer.sniff(Data(Array("RIFF".utf8) + Self.riffSize + Array("WEBPVP8L".utf8)))
        #expect(lossless.webPKind == .lossless)
        var extended = Array("RIFF".utf8) + Self.riffSize + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        extended += [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let animated = FormatSniffer.sniff(Data(extended))
        #expect(animated.webPKind == .extended && animated.isAnimated)
    }

    @Test("an acTL chunk before IDAT marks an APNG")
    func apng() {
        let chunk = PNGBytes.chunk, signature = PNGBytes.signature
        let ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
        let still = signature + ihdr + chunk("IDAT", [1, 2, 3]) + chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
        let animated = signature + ihdr + chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0]) + chunk("IDAT", [1, 2, 3])
        #expect(FormatSniffer.sniff(Data(still)).isAnimated == false)
        #expect(FormatSniffer.sniff(Data(animated)).isAnimated == true)
        // A chunk length that points past the end stops the walk without trapping.
        let hostile = signature + [0xFF, 0xFF, 0xFF, 0xF0] + Array("tEXt".utf8)
        #expect(FormatSniffer.sniff(Data(hostile)) == SniffedFormat(format: .png, isAnimated: false, webPKind: nil))
    }
}
