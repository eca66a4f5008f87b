import Testing
import IrisSamples
@testable import Iris
import IrisTestSupport

@Suite("Pixel formats")
struct PixelFormatTests {
    /// A photo-like picture with a range of alpha (a fully transparent disc, a fade), premultiplied.
    static let photo = SampleImages.photo(width: 67, height: 41, seed: 21, format: .rgba8, alpha: true)

    @Test("BGR layouts store blue, green, red, then alpha (or 255), and read back as RGBA")
    func byteLayouts() {
        let value = RGBA(r: 30, g: 20, b: 10, a: 40)
        let expectedBytes: [PixelFormat: [UInt8]] = [
            .rgba8: [30, 20, 10, 40], .rgbx8: [30, 20, 10, 255],
            .bgra8: [10, 20, 30, 40], .bgrx8: [10, 20, 30, 255], .gray8: [value.luma],
        ]
        for format in PixelFormat.allCases {
            var bitmap = Bitmap(width: 2, height: 1, format: format)
            bitmap.setRGBA(value, x: 1, y: 0)
            let bpp = format.bytesPerPixel
            #expect(Array(bitmap.pixels[bpp..<(2 * bpp)]) == expectedBytes[format], "\(format)")
            #expect(bitmap.rgba(x: 1, y: 0) == PictureComparison.expected(value, in: format), "\(format)")
        }
        let bgrx = Bitmap(width: 3, height: 1, format: .bgrx8)
        #expect(bgrx.pixels == [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(bgrx.rgba(x: 2, y: 0) == RGBA(r: 0, g: 0, b: 0, a: 255))
    }

    @Test("format properties: size, alpha, order and counterparts")
    func properties() {
        #expect(PixelFormat.bgra8.bytesPerPixel == 4 && PixelFormat.bgrx8.bytesPerPixel == 4)
        #expect(PixelFormat.allCases.filter(\.hasAlpha) == [.rgba8, .bgra8])
        #expect(PixelFormat.allCases.filter(\.isBlueFirst) == [.bgra8, .bgrx8])
        #expect(PixelFormat.bgrx8.withAlpha == .bgra8 && PixelFormat.rgbx8.withAlpha == .rgba8)
        #expect(PixelFormat.bgra8.withoutAlpha == .bgrx8 && PixelFormat.rgba8.withoutAlpha == .rgbx8)
        #expect(PixelFormat.gray8.withoutAlpha == .gray8)
        #expect(PixelFormat.gray8.withAlpha == PixelFormat.preferred(hasAlpha: true))
        #if canImport(CoreGraphics)
        #expect(PixelFormat.preferred(hasAlpha: true) == .bgra8 && PixelFormat.preferred(hasAlpha: false) == .bgrx8)
        #else
        #expect(PixelFormat.preferred(hasAlpha: true) == .rgba8 && PixelFormat.preferred(hasAlpha: false) == .rgbx8)
        #endif
    }

    @Test("every conversion between the five formats gives the documented picture", arguments: PixelFormat.allCases)
    func conversions(from source: PixelFormat) {
        let input = Self.photo.converted(to: source)
        for target in PixelFormat.allCases {
            let output = input.converted(to: target)
            #expect(output.format == target)
            #expect(output.bytesPerRow == output.width * target.bytesPerPixel)
            var wrong = 0
            for y in 0..<input.height {
                for x in 0..<input.width
                where output.rgba(x: x, y: y) != PictureComparison.expected(input.rgba(x: x, y: y), in: target) {
                    wrong += 1
                }
            }
            #expect(wrong == 0, "\(source) → \(target): \(wrong) pixels wrong")
        }
    }

    @Test("conversions that lose nothing round-trip exactly, every pair", arguments: PixelFormat.allCases)
    func roundTrips(from source: PixelFormat) {
        let input = Self.photo.converted(to: source)
        for target in PixelFormat.allCases {
            // Nothing is lost unless colour becomes grey or alpha is dropped.
            let keepsColour = target != .gray8 || source == .gray8
            let keepsAlpha = target.hasAlpha || !source.hasAlpha
            let back = input.converted(to: target).converted(to: source)
            if keepsColour && keepsAlpha {
                expectSameBytes(back, input, "\(source) → \(target) → \(source)")
            } else {
                // What is lost stays lost and nothing else changes; what the lossy format held
                // survives the way back.
                var wrong = 0
                for y in 0..<input.height {
                    for x in 0..<input.width {
                        let there = PictureComparison.expected(input.rgba(x: x, y: y), in: target)
                        if back.rgba(x: x, y: y) != PictureComparison.expected(there, in: source) { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "\(source) → \(target) → \(source): \(wrong) pixels wrong")
                expectSameBytes(back.converted(to: target), input.converted(to: target), "\(source) → \(target) twice")
            }
        }
    }

    @Test("BGR ↔ RGB conversion only exchanges red and blue, byte for byte")
    func swapsBytes() {
        let bgra = Self.photo.converted(to: .bgra8)
        let rgba = Self.photo.pixels, swapped = bgra.pixels
        var wrong = 0
        for i in stride(from: 0, to: rgba.count, by: 4)
        where swapped[i] != rgba[i + 2] || swapped[i + 1] != rgba[i + 1] || swapped[i + 2] != rgba[i] || swapped[i + 3] != rgba[i + 3] {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(!bgra.isOpaque && Self.photo.converted(to: .bgrx8).isOpaque)
        #expect(Bitmap(width: 4, height: 4, format: .bgra8).converted(to: .bgrx8).isOpaque)
    }

    @Test("converting a bitmap with padded rows reads only the pixels and packs the output")
    func paddedRows() throws {
        let width = 5, height = 3, stride = width * 4 + 7
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let o = y * stride + x * 4
                bytes[o] = UInt8(10 * x)
                bytes[o + 1] = UInt8(10 * y)
                bytes[o + 2] = 99
                bytes[o + 3] = 255
            }
        }
        let padded = try #require(Bitmap(width: width, height: height, format: .bgra8, bytesPerRow: stride, pixels: bytes))
        for target in PixelFormat.allCases {
            let out = padded.converted(to: target)
            // The same format is the bitmap itself; any other is packed.
            #expect(out.bytesPerRow == (target == .bgra8 ? stride : width * target.bytesPerPixel))
            PictureComparison.expectSamePicture(out, padded.converted(to: .rgba8).converted(to: target), "\(target)")
            #expect(out.rgba(x: 4, y: 2) == PictureComparison.expected(RGBA(r: 99, g: 20, b: 40), in: target))
        }
    }

    @Test("sample images in BGR order are the RGB pictures with red and blue exchanged")
    func samplesInBGROrder() {
        for alpha in [false, true] {
            let rgb = SampleImages.photo(width: 30, height: 20, seed: 5, format: alpha ? .rgba8 : .rgbx8, alpha: alpha)
            let bgr = SampleImages.photo(width: 30, height: 20, seed: 5, format: alpha ? .bgra8 : .bgrx8, alpha: alpha)
            expectSameBytes(bgr, rgb.converted(to: bgr.format))
        }
    }
}
