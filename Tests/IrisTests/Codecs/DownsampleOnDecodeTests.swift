import Foundation
import Testing
@testable import Iris
import IrisSamples

/// Shrinking while decoding, through the registry: the resampler's promises hold for every
/// codec's path (JPEG DCT scaling, PNG streamed rows, libwebp's scaler).
@Suite("Downsample on decode")
struct DownsampleOnDecodeTests {
    /// Encoded constant images and the pixel each must decode to everywhere.
    static func constantInputs() throws -> [(String, Data)] {
        let straight = RGBA(r: 100, g: 50, b: 26, a: 128)
        return [
            (
                "PNG rgba8",
                try PNGEncoder().encode(
                    SampleImages.constant(width: 301, height: 203, colour: straight, format: .rgba8), options: EncodeOptions())
            ),
            (
                "PNG rgbx8",
                try PNGEncoder().encode(
                    SampleImages.constant(width: 301, height: 203, colour: RGBA(r: 200, g: 120, b: 40), format: .rgbx8),
                    options: EncodeOptions())
            ),
            (
                "PNG gray8",
                try PNGEncoder().encode(
                    SampleImages.constant(width: 301, height: 203, colour: RGBA(r: 77, g: 77, b: 77), format: .gray8),
                    options: EncodeOptions())
            ),
            (
                "JPEG",
                try JPEGEncoder().encode(
                    SampleImages.constant(width: 640, height: 480, colour: RGBA(r: 200, g: 120, b: 40), format: .rgbx8),
                    options: EncodeOptions(quality: 90))
            ),
            (
                "JPEG grey",
                try JPEGEncoder().encode(
                    SampleImages.constant(width: 640, height: 480, colour: RGBA(r: 90, g: 90, b: 90), format: .gray8),
                    options: EncodeOptions(quality: 90))
            ),
        ] + (try webPAndGIFConstantInputs())
    }

    @Test("a constant image stays the same constant at every target, with every kernel")
    func constantStaysConstant() throws {
        for (name, data) in try Self.constantInputs() {
            let full = try ImageDecoderRegistry.standard.decode(data).bitmap
            let expected = full.rgba(x: full.width / 2, y: full.height / 2)
            for kernel in ResamplingKernel.allCases {
                for side in [1, 7, 64, 150] {
                    let options = DecodeOptions(target: DecodeTarget(width: side, height: side), kernel: kernel)
                    let small = try ImageDecoderRegistry.standard.decode(data, options: options).bitmap
                    #expect(max(small.width, small.height) == side, "\(name) \(kernel) \(side)")
                    var wrong = 0
                    for y in 0..<small.height { for x in 0..<small.width where small.rgba(x: x, y: y) != expected { wrong += 1 } }
                    #expect(wrong == 0, "\(name) \(kernel) → \(small.size): \(wrong) pixels differ from \(expected)")
                }
            }
        }
    }

    @Test("a linear gradient decoded small stays the same gradient (±1), edges included")
    func gradientStaysLinear() throws {
        let width = 1000
        let gradient = SampleImages.horizontalGradient(width: width, height: 8, from: 10, to: 250, format: .gray8)
        let data = try PNGEncoder().encode(gradient, options: EncodeOptions())
        for kernel in ResamplingKernel.allCases {
            let small = try ImageDecoderRegistry.standard.decode(
                data, options: DecodeOptions(target: DecodeTarget(width: 100, height: 100), kernel: kernel)
            ).bitmap
            #expect(small.size == PixelSize(width: 100, height: 1))
            for x in 0..<small.width {
                // The output pixel's centre in source coordinates, clamped to the image.
                let centre = min(max((Double(x) + 0.5) * Double(width) / 100 - 0.5, 0), Double(width - 1))
                let expected = 10 + 240 * centre / Double(width - 1)
                let got = Double(small.rgba(x: x, y: 0).r)
                #expect(abs(got - expected) <= 1.0 + 1e-9, "\(kernel) x=\(x): \(got) vs \(expected)")
            }
        }
    }

    @Test(
        "half-transparent red next to transparent black does not darken when decoded small",
        arguments: [ImageFormat.png, .webp])
    func premultipliedDoesNotDarken(format: ImageFormat) throws {
        var bitmap = Bitmap(width: 400, height: 40, format: .rgba8)
        for y in 0..<40 { for x in 0..<200 { bitmap.setRGBA(RGBA(r: 128, g: 0, b: 0, a: 128), x: x, y: y) } }
        let data = try #require(ImageEncoders.encoder(for: format)).encode(bitmap, options: EncodeOptions(lossless: true))
        let small = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 37, height: 37)))
            .bitmap
        for x in 0..<small.width {
            let p = small.rgba(x: x, y: 1)
            guard p.a > 8 else { continue }
            let straightRed = Double(p.r) * 255 / Double(p.a)
            #expect(abs(straightRed - 255) <= 255.0 / Double(p.a) + 1, "x=\(x) \(p)")
            #expect(p.g == 0 && p.b == 0)
        }
    }
}
