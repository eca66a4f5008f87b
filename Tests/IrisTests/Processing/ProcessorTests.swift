import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

@Suite("Processors")
struct ProcessorTests {
    func loaded(_ bitmap: Bitmap) -> LoadedImage {
        LoadedImage(bitmap: bitmap, format: .png, sourceSize: bitmap.size)
    }

    @Test("shorthands build the processors and identifiers carry every parameter")
    func shorthands() {
        let processors: [any ImageProcessing] = [
            .resize(width: 100, height: 50, contentMode: .fill, crop: true), .crop(PixelRect(x: 1, y: 2, width: 3, height: 4)),
            .roundedCorners(radius: 8), .circle, .gaussianBlur(radius: 2), .grayscale, .custom("tint-v1") { $0 },
        ]
        let identifiers = processors.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        #expect(
            ImageProcessors.Resize(size: PixelSize(width: 100, height: 50)).identifier
                != ImageProcessors.Resize(size: PixelSize(width: 100, height: 51)).identifier)
        #expect(identifiers[1] == "iris.crop(1,2,3x4)")
    }

    @Test("resize fits, fills and crops to the exact size")
    func resize() throws {
        let image = loaded(SampleImages.photo(width: 400, height: 300))
        #expect(
            try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100)).process(image).bitmap.size
                == PixelSize(width: 100, height: 75))
        #expect(
            try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill).process(image).bitmap.size
                == PixelSize(width: 133, height: 100))
        #expect(
            try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill, crop: true).process(image).bitmap.size
                == PixelSize(width: 100, height: 100))
        // No upscaling unless asked.
        #expect(
            try ImageProcessors.Resize(size: PixelSize(width: 800, height: 800)).process(image).bitmap.size
                == PixelSize(width: 400, height: 300))
        #expect(
            try ImageProcessors.Resize(size: PixelSize(width: 800, height: 800), allowsUpscaling: true).process(image).bitmap.size
                == PixelSize(width: 800, height: 600))
        #expect(throws: ImageError.self) { try ImageProcessors.Resize(size: PixelSize(width: 0, height: 10)).process(image) }
    }

    @Test("crop keeps exactly the pixels of the rectangle, clipped to the image")
    func crop() throws {
        let bitmap = SampleImages.photo(width: 40, height: 30, seed: 3)
        let out = try ImageProcessors.Crop(rect: PixelRect(x: 10, y: 5, width: 8, height: 6)).process(loaded(bitmap)).bitmap
        #expect(out.size == PixelSize(width: 8, height: 6))
        for y in 0..<6 { for x in 0..<8 { #expect(out.rgba(x: x, y: y) == bitmap.rgba(x: x + 10, y: y + 5)) } }
        let clipped = try ImageProcessors.Crop(rect: PixelRect(x: 35, y: 25, width: 100, height: 100)).process(loaded(bitmap)).bitmap
        #expect(clipped.size == PixelSize(width: 5, height: 5))
        #expect(throws: ImageError.self) {
            try ImageProcessors.Crop(rect: PixelRect(x: 50, y: 0, width: 5, height: 5)).process(loaded(bitmap))
        }
    }

    @Test("rounded corners are transparent at the corner, anti-aliased on the arc, untouched inside")
    func roundedCorners() throws {
        let bitmap = SampleImages.constant(width: 64, height: 48, colour: RGBA(r: 200, g: 100, b: 50), format: .rgbx8)
        let out = try ImageProcessors.RoundedCorners(radius: 12).process(loaded(bitmap)).bitmap
        #expect(out.format == .rgba8)
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47)] { #expect(out.rgba(x: x, y: y).a == 0) }
        #expect(out.rgba(x: 32, y: 24) == RGBA(r: 200, g: 100, b: 50, a: 255))
        #expect(out.rgba(x: 32, y: 0) == RGBA(r: 200, g: 100, b: 50, a: 255))
        // Along the arc some pixels are partly covered, and stay premultiplied (colour ≤ alpha).
        var partial = 0
        for y in 0..<12 {
            for x in 0..<12 {
                let p = out.rgba(x: x, y: y)
                if p.a > 0 && p.a < 255 { partial += 1 }
                #expect(p.r <= p.a && p.g <= p.a && p.b <= p.a)
            }
        }
        #expect(partial >= 8)
        // The four corners are mirror images of each other.
        for y in 0..<12 { for x in 0..<12 { #expect(out.rgba(x: x, y: y).a == out.rgba(x: 63 - x, y: 47 - y).a) } }
    }

    @Test("circle crops the centred square and clears outside the disc")
    func circle() throws {
        let bitmap = SampleImages.constant(width: 60, height: 40, colour: RGBA(r: 10, g: 200, b: 30), format: .rgbx8)
        let out = try ImageProcessors.Circle().process(loaded(bitmap)).bitmap
        #expect(out.size == PixelSize(width: 40, height: 40))
        #expect(out.rgba(x: 0, y: 0).a == 0)
        #expect(out.rgba(x: 20, y: 20).a == 255)
        #expect(out.rgba(x: 20, y: 0).a > 0)
    }

    @Test("gaussian blur keeps a constant image constant and spreads a point symmetrically")
    func blur() throws {
        let flat = SampleImages.constant(width: 20, height: 20, colour: RGBA(r: 90, g: 60, b: 30, a: 200))
        try expectSameBytes(ImageProcessors.GaussianBlur(radius: 3).process(loaded(flat)).bitmap, flat)
        var point = Bitmap(width: 21, height: 21, format: .gray8)
        point.setRGBA(RGBA(r: 255, g: 255, b: 255), x: 10, y: 10)
        let out = try ImageProcessors.GaussianBlur(radius: 2).process(loaded(point)).bitmap
        #expect(out.rgba(x: 10, y: 10).r < 255)
        #expect(out.rgba(x: 12, y: 10).r > 0)
        #expect(out.rgba(x: 8, y: 10) == out.rgba(x: 12, y: 10))
        #expect(out.rgba(x: 10, y: 7) == out.rgba(x: 13, y: 10))
        let weights = ImageProcessors.GaussianBlur.weights(sigma: 2)
        #expect(weights.reduce(0, +) == 65536)
    }

    @Test("grayscale makes channels equal and keeps alpha")
    func grayscale() throws {
        let photo = SampleImages.photo(width: 30, height: 20, format: .rgba8, alpha: true)
        let out = try ImageProcessors.Grayscale().process(loaded(photo)).bitmap
        for y in 0..<20 {
            for x in 0..<30 {
                let p = out.rgba(x: x, y: y)
                #expect(p.r == p.g && p.g == p.b)
                #expect(p.a == photo.rgba(x: x, y: y).a)
            }
        }
        #expect(try ImageProcessors.Grayscale().process(loaded(SampleImages.photo(width: 4, height: 4))).bitmap.format == .gray8)
    }

    @Test("a custom processor runs its closure and its errors become processingFailed")
    func custom() throws {
        struct Boom: Error {}
        let invert = ImageProcessors.Custom(identifier: "invert") { image in
            var bitmap = image.bitmap
            bitmap.withUnsafeMutableBytes { for i in $0.indices { $0[i] = 255 - $0[i] } }
            return LoadedImage(bitmap: bitmap, format: image.format, sourceSize: image.sourceSize)
        }
        let out = try invert.process(loaded(SampleImages.constant(width: 2, height: 2, colour: RGBA(r: 10, g: 10, b: 10), format: .gray8)))
        #expect(out.bitmap.rgba(x: 1, y: 1).r == 245)
        let failing = ImageProcessors.Custom(identifier: "boom") { _ in throw Boom() }
        let error = #expect(throws: ImageError.self) { try failing.process(out) }
        if case .processingFailed(let name, _) = error { #expect(name == "boom") } else { Issue.record("got \(String(describing: error))") }
    }
}

/// Compositing over a background colour, for formats without alpha.
@Suite("Flattening")
struct FlattenTests {
    @Test(
        "transparent pixels take the background, opaque ones keep their colour, half-covered ones blend",
        arguments: [PixelFormat.rgba8, .bgra8])
    func flatten(format: PixelFormat) {
        var bitmap = Bitmap(width: 3, height: 1, format: format)
        bitmap.setRGBA(RGBA(r: 0, g: 0, b: 0, a: 0), x: 0, y: 0)
        bitmap.setRGBA(RGBA(r: 10, g: 20, b: 30, a: 255), x: 1, y: 0)
        bitmap.setRGBA(RGBA(r: 100, g: 0, b: 0, a: 128), x: 2, y: 0)  // premultiplied red at half cover
        let flat = bitmap.flattened(over: RGBA(r: 255, g: 255, b: 255))
        #expect(!flat.format.hasAlpha && flat.format.isBlueFirst == format.isBlueFirst)
        #expect(flat.rgba(x: 0, y: 0) == RGBA(r: 255, g: 255, b: 255))
        #expect(flat.rgba(x: 1, y: 0) == RGBA(r: 10, g: 20, b: 30))
        #expect(flat.rgba(x: 2, y: 0) == RGBA(r: 227, g: 127, b: 127))  // 100 + 255 × 127/255
        let opaque = Bitmap(width: 2, height: 2, format: .rgbx8)
        expectSameBytes(opaque.flattened(over: RGBA(r: 1, g: 2, b: 3)), opaque)
    }
}
