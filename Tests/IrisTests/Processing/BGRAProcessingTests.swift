import Foundation
import Testing
import IrisSamples
@testable import Iris
import IrisTestSupport

/// Every stage that touches pixels gives the same picture from BGR-order input as from RGB-order
/// input, and keeps the input's layout.
@Suite("BGRA processing")
struct BGRAProcessingTests {
    /// Pairs of the same picture in RGB and BGR order: with alpha (a fade and a transparent disc)
    /// and opaque.
    static let pairs: [(rgb: Bitmap, bgr: Bitmap)] = [true, false].map { alpha in
        let rgb = SampleImages.photo(width: 97, height: 61, seed: 17, format: alpha ? .rgba8 : .rgbx8, alpha: alpha)
        return (rgb, rgb.converted(to: alpha ? .bgra8 : .bgrx8))
    }

    static func loaded(_ bitmap: Bitmap) -> LoadedImage {
        LoadedImage(bitmap: bitmap, format: .png, sourceSize: bitmap.size)
    }

    @Test("the resampler gives the same picture in either order, every kernel, down and up", arguments: ResamplingKernel.allCases)
    func resampler(kernel: ResamplingKernel) {
        for (rgb, bgr) in Self.pairs {
            for size in [PixelSize(width: 31, height: 20), PixelSize(width: 150, height: 77), PixelSize(width: 97, height: 13)] {
                let a = Resampler(kernel: kernel).resize(rgb, to: size)
                let b = Resampler(kernel: kernel).resize(bgr, to: size)
                #expect(b.format == bgr.format)
                PictureComparison.expectSamePicture(a, b, "\(kernel) \(bgr.format) → \(size)")
            }
        }
    }

    @Test("the streaming resampler clamps premultiplied BGRA colour to alpha")
    func premultipliedClamp() {
        let bgr = Self.pairs[0].bgr
        let out = Resampler(kernel: .lanczos3).resize(bgr, to: PixelSize(width: 40, height: 25))
        var over = 0
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = out.rgba(x: x, y: y)
                if p.r > p.a || p.g > p.a || p.b > p.a { over += 1 }
            }
        }
        #expect(over == 0)
    }

    @Test("orientation gives the same picture in either order", arguments: Orientation.allCases)
    func orientation(_ orientation: Orientation) {
        for (rgb, bgr) in Self.pairs {
            let out = bgr.oriented(orientation)
            #expect(out.format == bgr.format)
            PictureComparison.expectSamePicture(rgb.oriented(orientation), out, "\(orientation) \(bgr.format)")
        }
    }

    @Test("every processor gives the same picture in either order and keeps the colour order")
    func processors() throws {
        let processors: [any ImageProcessing] = [
            .resize(width: 40, height: 40), .resize(width: 40, height: 40, contentMode: .fill, crop: true),
            .crop(PixelRect(x: 10, y: 7, width: 33, height: 21)), .roundedCorners(radius: 14), .circle,
            .gaussianBlur(radius: 1.5), .grayscale,
        ]
        for (rgb, bgr) in Self.pairs {
            for processor in processors {
                let a = try processor.process(Self.loaded(rgb)).bitmap
                let b = try processor.process(Self.loaded(bgr)).bitmap
                PictureComparison.expectSamePicture(a, b, "\(processor.identifier) on \(bgr.format)")
                if b.format != .gray8 {
                    #expect(b.format.isBlueFirst, "\(processor.identifier) on \(bgr.format) gave \(b.format)")
                }
            }
        }
    }

    @Test("grayscale reads red and blue from their places in BGRA")
    func grayscaleChannels() throws {
        var bitmap = Bitmap(width: 2, height: 1, format: .bgra8)
        bitmap.setRGBA(RGBA(r: 200, g: 0, b: 0, a: 255), x: 0, y: 0)
        bitmap.setRGBA(RGBA(r: 0, g: 0, b: 100, a: 128), x: 1, y: 0)
        let out = try ImageProcessors.Grayscale().process(Self.loaded(bitmap)).bitmap
        #expect(out.format == .bgra8)
        let red = RGBA(r: 200, g: 0, b: 0).luma, blue = RGBA(r: 0, g: 0, b: 100).luma
        #expect(out.rgba(x: 0, y: 0) == RGBA(r: red, g: red, b: red, a: 255))
        #expect(out.rgba(x: 1, y: 0) == RGBA(r: blue, g: blue, b: blue, a: 128))
        #expect(red == 60 && blue == 11)
        let opaque = try ImageProcessors.Grayscale().process(Self.loaded(bitmap.converted(to: .bgrx8))).bitmap
        #expect(opaque.format == .gray8 && opaque.rgba(x: 0, y: 0).r == red)
    }

    @Test("rounded corners make BGR input transparent in BGR order")
    func roundedCornersFormat() throws {
        let out = try ImageProcessors.RoundedCorners(radius: 10).process(Self.loaded(Self.pairs[1].bgr)).bitmap
        #expect(out.format == .bgra8)
        #expect(out.rgba(x: 0, y: 0).a == 0)
        #expect(out.rgba(x: 48, y: 30).a == 255)
    }

    @Test("encoders write the same file content from BGR as from RGB input")
    func encoders() throws {
        let registry = ImageDecoderRegistry.standard
        for (rgb, bgr) in Self.pairs {
            // Lossless: the decoded pictures match exactly (straight alpha loses a little precision,
            // the same for both).
            for (format, options) in [(ImageFormat.png, EncodeOptions()), (.webp, EncodeOptions(lossless: true))] {
                let encoder = try #require(ImageEncoders.encoder(for: format))
                let a = try registry.decode(encoder.encode(rgb, options: options)).bitmap
                let b = try registry.decode(encoder.encode(bgr, options: options)).bitmap
                PictureComparison.expectSamePicture(a, b, "\(format) from \(bgr.format)")
                PictureComparison.expectSamePicture(a, rgb, tolerance: rgb.format.hasAlpha ? 2 : 0, "\(format) round trip")
            }
            // Lossy: the same input pixels give the same file.
            for (format, options) in [(ImageFormat.jpeg, EncodeOptions(quality: 90)), (.webp, EncodeOptions(quality: 80))] {
                let encoder = try #require(ImageEncoders.encoder(for: format))
                try expectSameBytes(
                    encoder.encode(rgb, options: options), encoder.encode(bgr, options: options),
                    "\(format) from \(bgr.format)")
            }
        }
    }
}
