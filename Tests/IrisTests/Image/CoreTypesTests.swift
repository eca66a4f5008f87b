import Foundation
import Testing
@testable import Iris

@Suite("Core types")
struct CoreTypesTests {
    @Test("fit keeps the whole image inside the box; fill covers it; aspect kept")
    func outputSizes() {
        let source = PixelSize(width: 4032, height: 3024)
        #expect(DecodeTarget(width: 300, height: 300, contentMode: .fit).outputSize(for: source) == PixelSize(width: 300, height: 225))
        #expect(DecodeTarget(width: 300, height: 300, contentMode: .fill).outputSize(for: source) == PixelSize(width: 400, height: 300))
        // Odd sizes round to the nearest pixel.
        #expect(
            DecodeTarget(width: 100, height: 100).outputSize(for: PixelSize(width: 333, height: 201)) == PixelSize(width: 100, height: 60))
        // Never upscale unless asked.
        #expect(DecodeTarget(width: 500, height: 500).outputSize(for: PixelSize(width: 40, height: 30)) == PixelSize(width: 40, height: 30))
        #expect(
            DecodeTarget(width: 80, height: 80, allowsUpscaling: true).outputSize(for: PixelSize(width: 40, height: 30))
                == PixelSize(width: 80, height: 60))
        // A 1-pixel-wide source stays at least one pixel wide.
        #expect(DecodeTarget(width: 50, height: 50).outputSize(for: PixelSize(width: 1, height: 1000)) == PixelSize(width: 1, height: 50))
        #expect(
            DecodeTarget(width: 50, height: 50, contentMode: .fill).outputSize(for: PixelSize(width: 1, height: 1000))
                == PixelSize(width: 1, height: 1000))
    }

    @Test("errors read as sentences")
    func messages() {
        #expect(
            ImageError.truncated(format: .png, received: 4096, expected: 91_233).description
                == "PNG is truncated after 4,096 of 91,233 bytes")
        #expect(ImageError.truncated(format: .jpeg, received: 512, expected: nil).description == "JPEG is truncated after 512 bytes")
        #expect(
            ImageError.overLimit(.pixels(width: 60000, height: 60000, limit: 256_000_000)).description
                == "image is 60000×60000 (3.6 GP), over the 256 MP limit")
        #expect(
            ImageError.overLimit(.decodedBytes(bytes: 3 << 30, limit: 1 << 30)).description
                == "decoded image would take 3 GiB, over the 1 GiB limit")
        #expect(ImageError.unsupportedFormat(.heic).description == "HEIC images are not supported")
        #expect(ImageError.httpStatus(code: 404, url: URL(string: "http://x/a.png")).description == "HTTP 404 for http://x/a.png")
    }

    @Test("limits reject sizes before decoding, overflow included")
    func limits() {
        let limits = DecodingLimits()
        #expect(throws: Never.self) { try limits.check(width: 16000, height: 16000, format: .png) }
        #expect(throws: ImageError.overLimit(.pixels(width: 16001, height: 16000, limit: 256_000_000))) {
            try limits.check(width: 16001, height: 16000, format: .png)
        }
        #expect(throws: ImageError.overLimit(.pixels(width: .max, height: 2, limit: 256_000_000))) {
            try limits.check(width: .max, height: 2, format: .png)
        }
        #expect(throws: ImageError.invalidDimensions(format: .gif, width: 0, height: 5)) {
            try limits.check(width: 0, height: 5, format: .gif)
        }
    }

    @Test("premultiply and unpremultiply round-trip opaque and transparent pixels")
    func premultiplication() {
        var row: [UInt8] = [255, 0, 0, 128, 10, 20, 30, 255, 200, 100, 50, 0]
        row.withUnsafeMutableBytes { PixelConversion.premultiplyRGBA($0, pixelCount: 3) }
        #expect(row == [128, 0, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0])
        row.withUnsafeMutableBytes { PixelConversion.unpremultiplyRGBA($0, pixelCount: 3) }
        #expect(row == [255, 0, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0])
        // Every colour/alpha pair: premultiplied value equals round(c * a / 255).
        for a in stride(from: 0, through: 255, by: 17) {
            for c in stride(from: 0, through: 255, by: 5) {
                var pixel: [UInt8] = [UInt8(c), 0, 0, UInt8(a)]
                pixel.withUnsafeMutableBytes { PixelConversion.premultiplyRGBA($0, pixelCount: 1) }
                #expect(Int(pixel[0]) == Int((Double(c * a) / 255).rounded()))
            }
        }
    }

    @Test("bitmaps convert between formats and are copy-on-write")
    func conversions() {
        var colour = Bitmap(width: 2, height: 1, format: .rgba8)
        colour.setRGBA(RGBA(r: 200, g: 100, b: 50, a: 255), x: 0, y: 0)
        colour.setRGBA(RGBA(r: 0, g: 255, b: 0, a: 255), x: 1, y: 0)
        let gray = colour.converted(to: .gray8)
        #expect(gray.rgba(x: 0, y: 0).r == RGBA(r: 200, g: 100, b: 50).luma)
        #expect(gray.rgba(x: 1, y: 0).r == 150)
        let rgbx = colour.converted(to: .rgbx8)
        #expect(rgbx.rgba(x: 0, y: 0) == RGBA(r: 200, g: 100, b: 50, a: 255))
        #expect(rgbx.pixels[3] == 255)
        #expect(gray.converted(to: .rgba8).rgba(x: 1, y: 0) == RGBA(r: 150, g: 150, b: 150, a: 255))
        var copy = colour
        copy.setRGBA(RGBA(r: 1, g: 2, b: 3, a: 4), x: 0, y: 0)
        #expect(colour.rgba(x: 0, y: 0) == RGBA(r: 200, g: 100, b: 50, a: 255))
        #expect(colour.cost == 8)
        #expect(Bitmap(width: 3, height: 2, format: .rgbx8).isOpaque)
        #expect(!Bitmap(width: 3, height: 2, format: .rgba8).isOpaque)
        #expect(Bitmap(width: 2, height: 2, format: .rgba8, pixels: [0, 0, 0]) == nil)
    }
}
