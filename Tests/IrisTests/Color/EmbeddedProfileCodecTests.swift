#if canImport(CLCMS2)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// The encoders write the profile of a tagged bitmap (JPEG APP2, PNG iCCP, WebP ICCP) and the
/// decoders read it back (libjpeg-turbo's `jpeg_read_icc_profile`, libpng's `png_get_iCCP`,
/// libwebp's demuxer); untagged bitmaps are written without one.
@Suite("Embedded ICC profiles: written and read back")
struct EmbeddedProfileCodecTests {
    @Test("A tagged bitmap's profile survives encode and decode", arguments: ColorReference.formats)
    func roundTrip(format: ImageFormat) throws {
        let source = ColorReference.photo(width: 40, height: 30)
        for (name, profile) in try TestProfiles.wideGamut() {
            let data = try ColorReference.encoder(format).encode(ColorReference.tagged(source, profile), options: ColorReference.options)
            let decoded = try ColorReference.decode(data, .keepSource)
            #expect(decoded.colorSpace.iccProfile?.identity == profile.identity, "\(format) \(name)")
            expectSameBytes(decoded.colorSpace.iccProfile?.data, profile.data, "\(format) \(name)")
            // The numbers are the same as the untagged file's: the profile only labels them.
            let untagged = try ColorReference.decode(
                ColorReference.encoder(format).encode(source, options: ColorReference.options), .keepSource)
            expectSameBytes(decoded, untagged, "\(format) \(name)")
            #expect(untagged.colorSpace == .sRGB)
        }
    }

    @Test("A profile of several JPEG segments (over 64 KB) is read whole")
    func multiSegmentJPEG() throws {
        // A real profile made longer: an unused private tag's worth of padding after its data
        // (the size field grows with it, the tag table stays valid).
        var bytes = [UInt8](try TestProfiles.adobeRGB().data)
        bytes += [UInt8](repeating: 0x5A, count: 150_000)
        let size = bytes.count
        bytes.replaceSubrange(0..<4, with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        let profile = try #require(ICCProfile(data: Data(bytes)))
        let data = try ColorReference.encoder(.jpeg).encode(
            ColorReference.tagged(ColorReference.photo(width: 20, height: 20), profile),
            options: ColorReference.options)
        let decoded = try ColorReference.decode(data, .keepSource)
        expectSameBytes(decoded.colorSpace.iccProfile?.data, profile.data, "three APP2 segments")
    }

    @Test("A grey profile is not written for colour pixels, nor an RGB one for grey")
    func modelMustFit() throws {
        let grey = SampleImages.horizontalGradient(width: 32, height: 8, format: .gray8)
        for format in ColorReference.formats where format != .webp {
            let data = try ColorReference.encoder(format).encode(
                ColorReference.tagged(grey, try TestProfiles.adobeRGB()),
                options: ColorReference.options)
            #expect(try ColorReference.decode(data, .keepSource).colorSpace == .sRGB, "\(format)")
        }
    }

    @Test("PNG gAMA and cHRM chunks: about sRGB is sRGB, a different gamma is converted")
    func pngGammaChunks() throws {
        let source = ColorReference.photo(width: 48, height: 32)
        let plain = try ColorReference.encoder(.png).encode(source, options: ColorReference.options)
        let reference = try ColorReference.decode(plain, .keepSource)
        // gAMA 45455 (1/2.2), the usual chunk of old tools: sRGB, pixels untouched.
        let usual = PNGBytes.inserting(PNGBytes.chunk("gAMA", PNGBytes.be32(45_455)), afterIHDROf: plain)
        let usualDecoded = try ColorReference.decode(usual, .convertToSRGB)
        #expect(usualDecoded.colorSpace == .sRGB)
        expectSameBytes(usualDecoded, reference, "gAMA 1/2.2")
        // gAMA 1/1.8 (old Macintosh): calibrated, and converted (mid-tones lighten: a value
        // means more light at gamma 1.8 than at sRGB's 2.2).
        let mac = PNGBytes.inserting(PNGBytes.chunk("gAMA", PNGBytes.be32(55_556)), afterIHDROf: plain)
        let kept = try ColorReference.decode(mac, .keepSource)
        guard case .calibrated(let calibration) = kept.colorSpace else {
            Issue.record("gAMA 1/1.8 gave \(kept.colorSpace)")
            return
        }
        #expect(abs((calibration.gamma ?? 0) - 0.55556) < 1e-6)
        let converted = try ColorReference.decode(mac, .convertToSRGB)
        let error = ColorReference.meanError(converted, reference)
        #expect(error >= 3, "gamma 1.8 → sRGB moved the pixels only \(error) levels")
        #expect(converted.rgba(x: 10, y: 10).g >= reference.rgba(x: 10, y: 10).g)
    }
}

extension EmbeddedProfileCodecTests {
    @Test(
        "Pixels kept in a PNG's gAMA space are written with an ICC profile that means the same",
        arguments: ColorReference.formats)
    func calibratedWrittenAsICC(format: ImageFormat) throws {
        let plain = try ColorReference.encoder(.png).encode(ColorReference.photo(width: 48, height: 32), options: ColorReference.options)
        let mac = PNGBytes.inserting(PNGBytes.chunk("gAMA", PNGBytes.be32(55_556)), afterIHDROf: plain)
        let kept = try ColorReference.decode(mac, .keepSource)
        let written = try ColorReference.encoder(format).encode(kept, options: ColorReference.options)
        let reread = try ColorReference.decode(written, .keepSource)
        #expect(reread.colorSpace.iccProfile != nil, "\(format): written without a profile")
        // What the output codec alone loses (JPEG is lossy), plus a level.
        let codecError = ColorReference.meanError(reread, kept)
        let error = ColorReference.meanError(
            try ColorReference.decode(written, .convertToSRGB),
            try ColorReference.decode(mac, .convertToSRGB))
        #expect(error <= codecError + 1, "\(format): mean error \(error), the codec alone \(codecError)")
    }
}
#endif
