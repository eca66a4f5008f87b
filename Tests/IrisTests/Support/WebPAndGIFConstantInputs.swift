import Foundation
import IrisSamples
@testable import Iris
import IrisTestSupport

extension DownsampleOnDecodeTests {
    /// Constant inputs of WebP (lossless and lossy, with and without alpha) and GIF.
    static func webPAndGIFConstantInputs() throws -> [(String, Data)] {
        let straight = RGBA(r: 200, g: 120, b: 40, a: 128)
        let translucent = SampleImages.constant(width: 301, height: 203, colour: PNGSampleImage.premultiplied(straight), format: .rgba8)
        let opaque = SampleImages.constant(width: 301, height: 203, colour: RGBA(r: 200, g: 120, b: 40), format: .rgbx8)
        var inputs = [
            ("WebP lossless rgba8", try WebPEncoder().encode(translucent, options: EncodeOptions(lossless: true))),
            ("WebP lossless rgbx8", try WebPEncoder().encode(opaque, options: EncodeOptions(lossless: true))),
            // Lossy: a whole number of macroblocks, so the decoded source itself is constant.
            (
                "WebP lossy",
                try WebPEncoder().encode(
                    SampleImages.constant(width: 320, height: 240, colour: RGBA(r: 200, g: 120, b: 40), format: .rgbx8),
                    options: EncodeOptions(quality: 90))
            ),
        ]
        #if canImport(CGIF)
        inputs.append(
            (
                "GIF",
                try GIFTestWriter.gif(
                    width: 301, height: 203, palette: GIFCodecTests.palette,
                    frames: [.init(width: 301, height: 203, indices: [UInt8](repeating: 4, count: 301 * 203))])
            ))
        #endif
        return inputs
    }
}
