#if canImport(CLCMS2) && canImport(CWebP)
import CWebP
import Foundation
import IrisSamples
import Testing
@testable import Iris

/// An animated file's declared profile applies to every frame: converted by default, kept
/// (tagged) when asked.
@Suite("Colour management of animations")
struct ColorAnimationTests {
    @Test("Every frame of an animated WebP with an ICCP chunk is converted to sRGB")
    func animatedWebP() async throws {
        let profile = try TestProfiles.adobeRGB()
        let frames = [
            ColorReference.photo(width: 48, height: 32, seed: 1).converted(to: .rgba8),
            ColorReference.photo(width: 48, height: 32, seed: 2).converted(to: .rgba8),
        ]
        let encoder = try #require(ImageEncoders.animationEncoder(for: .webp))
        let plain = try await encoder.encode(Animation(frames: frames, durations: [0.1, 0.1]), options: EncodeOptions(lossless: true))
        let data = try Self.addingICCP(profile.data, to: plain)

        let shown = try ColorReference.decodeImage(data, .convertToSRGB)
        let kept = try ColorReference.decodeImage(data, .keepSource)
        let shownAnimation = try #require(shown.animation), keptAnimation = try #require(kept.animation)
        #expect(shownAnimation.frameCount == 2)
        for index in 0..<2 {
            let frame = try await shownAnimation.frame(at: index)
            let stored = try await keptAnimation.frame(at: index)
            #expect(frame.colorSpace == .sRGB && stored.colorSpace == .icc(profile), "frame \(index)")
            let expected = try ColorReference.renderedToSRGB(frames[index], from: profile)
            let error = ColorReference.meanError(frame, expected)
            #expect(error <= 1, "frame \(index): mean error \(error)")
            #expect(ColorReference.meanError(stored, expected) >= 4, "frame \(index): the stored numbers are not the rendering")
        }
        #expect(ColorReference.meanError(shown.bitmap, try ColorReference.renderedToSRGB(frames[0], from: profile)) <= 1)
    }

    /// `webp` with `profile` as its ICCP chunk, through libwebp's muxer.
    static func addingICCP(_ profile: Data, to webp: Data) throws -> Data {
        try webp.withUnsafeBytes { bytes in
            try profile.withUnsafeBytes { icc in
                var image = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                let mux = try #require(WebPMuxCreate(&image, 1))
                defer { WebPMuxDelete(mux) }
                var chunk = WebPData(bytes: icc.baseAddress!.assumingMemoryBound(to: UInt8.self), size: icc.count)
                #expect(WebPMuxSetChunk(mux, "ICCP", &chunk, 1) == WEBP_MUX_OK)
                var assembled = WebPData()
                #expect(WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK)
                defer { WebPDataClear(&assembled) }
                return Data(bytes: try #require(assembled.bytes), count: assembled.size)
            }
        }
    }
}
#endif
