#if canImport(CLCMS2)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Decoding for display converts embedded profiles to sRGB: the pixels Iris gives equal the
/// source's numbers rendered to sRGB by Little CMS (used directly, ``ColorReference``), for
/// JPEG, PNG and WebP, Display P3, Adobe RGB and ProPhoto. Without conversion the same pixels
/// are far off (checked too, so the bound means something).
@Suite("Colour management: embedded profiles to sRGB")
struct ColorConversionTests {
    @Test("A tagged image decodes to its sRGB rendering", arguments: ColorReference.formats)
    func convertsToSRGB(format: ImageFormat) throws {
        let source = ColorReference.photo()
        for (name, profile) in try TestProfiles.wideGamut() {
            let data = try ColorReference.encoder(format).encode(ColorReference.tagged(source, profile), options: ColorReference.options)
            let expected = try ColorReference.renderedToSRGB(source, from: profile)
            let decoded = try ColorReference.decode(data, .convertToSRGB)
            #expect(decoded.colorSpace == .sRGB)
            let error = ColorReference.meanError(decoded, expected)
            #expect(error <= 2, "\(format) \(name): mean error \(error) levels")
            // The numbers as stored are far from what the profile means: the bound above is a
            // real check.
            let unconverted = try ColorReference.decode(data, .keepSource)
            #expect(unconverted.colorSpace == .icc(profile), "\(format) \(name)")
            let unmanaged = ColorReference.meanError(unconverted, expected)
            #expect(unmanaged >= 4, "\(format) \(name): unconverted mean error only \(unmanaged)")
        }
    }

    @Test("A profile that swaps red and green swaps them in the output", arguments: ColorReference.formats)
    func swapProfileIsApplied(format: ImageFormat) throws {
        let profile = try TestProfiles.swappedRedAndGreen()
        let source = SampleImages.constant(width: 16, height: 16, colour: RGBA(r: 220, g: 40, b: 90), format: .rgbx8)
        let data = try ColorReference.encoder(format).encode(ColorReference.tagged(source, profile), options: ColorReference.options)
        let stored = try ColorReference.decode(data, .keepSource).rgba(x: 8, y: 8)
        let shown = try ColorReference.decode(data, .convertToSRGB).rgba(x: 8, y: 8)
        #expect(
            abs(Int(shown.r) - Int(stored.g)) <= 2 && abs(Int(shown.g) - Int(stored.r)) <= 2
                && abs(Int(shown.b) - Int(stored.b)) <= 2,
            "\(format): stored \(stored), shown \(shown)")
    }

    @Test("Untagged and sRGB-tagged images decode bit for bit as before", arguments: ColorReference.formats)
    func sRGBUnchanged(format: ImageFormat) throws {
        let source = ColorReference.photo()
        let encoder = try ColorReference.encoder(format)
        let untagged = try encoder.encode(source, options: ColorReference.options)
        let reference = try ColorReference.decode(untagged, .keepSource)
        #expect(reference.colorSpace == .sRGB)
        expectSameBytes(try ColorReference.decode(untagged, .convertToSRGB), reference, "\(format) untagged")
        let sRGBTagged = try encoder.encode(ColorReference.tagged(source, try TestProfiles.colordSRGB()), options: ColorReference.options)
        let converted = try ColorReference.decode(sRGBTagged, .convertToSRGB)
        expectSameBytes(converted, reference, "\(format) tagged with colord's sRGB profile")
        #expect(converted.colorSpace == .sRGB)
    }

    @Test(
        "Premultiplied alpha: colour converted, alpha kept exactly (PNG and WebP)",
        arguments: [ImageFormat.png, .webp])
    func alphaKept(format: ImageFormat) throws {
        let profile = try TestProfiles.adobeRGB()
        let source = SampleImages.photo(width: 64, height: 48, seed: 3, format: .rgba8, alpha: true)
        let options = EncodeOptions(quality: 95, lossless: true)
        let data = try ColorReference.encoder(format).encode(ColorReference.tagged(source, profile), options: options)
        let stored = try ColorReference.decode(data, .keepSource)
        let shown = try ColorReference.decode(data, .convertToSRGB)
        #expect(stored.format == .rgba8 && shown.format == .rgba8)
        var alphaDiffers = 0, worst = 0, converted = 0, worstAt = ""
        let expected = try ColorReference.renderedToSRGB(Self.unpremultiplied(stored), from: profile)
        for y in 0..<shown.height {
            for x in 0..<shown.width {
                let s = stored.rgba(x: x, y: y), o = shown.rgba(x: x, y: y)
                if s.a != o.a { alphaDiffers += 1 }
                guard s.a > 0 else { continue }
                converted += 1
                // The reference's straight colour premultiplied, against Iris's premultiplied output.
                let e = expected.rgba(x: x, y: y), a = Int(o.a)
                func premultiplied(_ v: UInt8) -> Int { (Int(v) * a + 127) / 255 }
                let difference = max(
                    abs(premultiplied(e.r) - Int(o.r)), abs(premultiplied(e.g) - Int(o.g)),
                    abs(premultiplied(e.b) - Int(o.b)))
                if difference > worst {
                    worst = difference
                    worstAt = "stored \(s), shown \(o), reference straight \(e)"
                }
            }
        }
        #expect(alphaDiffers == 0)
        #expect(converted > 100)
        #expect(worst <= 3, "\(format): worst premultiplied difference \(worst) levels: \(worstAt)")
    }

    @Test("A CMYK JPEG with a CMYK profile is converted through it")
    func cmykThroughProfile() throws {
        let profile = try TestProfiles.ghostscriptCMYK()
        let source = ColorReference.photo(width: 96, height: 64)
        let plain = try JPEGEncoder.encodeFourColour(source, quality: 95, ycck: false, adobeMarker: true)
        let data = JPEGSegments.inserting(profile: profile.data, into: plain)
        // The reference: the CMYK samples the encoder stored (Adobe: inverted), through the profile.
        var cmyk = [UInt8](repeating: 0, count: source.width * source.height * 4)
        let rgbx = source.converted(to: .rgbx8)
        rgbx.withUnsafeBytes { pixels in
            cmyk.withUnsafeMutableBytes { out in
                JPEGEncoder.rgbToCMYK(from: pixels, to: out, pixelCount: source.width * source.height, inverted: true)
            }
        }
        let expected = try ColorReference.renderedCMYK(cmyk, width: source.width, height: source.height, inverted: true, profile: profile)
        for management in [ColorManagement.convertToSRGB, .keepSource] {
            let decoded = try ColorReference.decode(data, management)
            #expect(decoded.colorSpace == .sRGB)
            let error = ColorReference.meanError(decoded, expected)
            #expect(error <= 3, "\(management): mean error \(error)")
        }
        // Without the profile the naive conversion gives something else: the profile was used.
        let naive = try ColorReference.decode(plain, .convertToSRGB)
        let naiveError = ColorReference.meanError(naive, expected)
        #expect(naiveError >= 6, "naive CMYK is only \(naiveError) levels from the profile's rendering")
    }

    /// Straight-alpha RGBX of a premultiplied bitmap (alpha dropped).
    static func unpremultiplied(_ bitmap: Bitmap) -> Bitmap {
        var out = Bitmap(width: bitmap.width, height: bitmap.height, format: .rgbx8)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.rgba(x: x, y: y)
                let a = max(Int(p.a), 1)
                func straight(_ v: UInt8) -> UInt8 { UInt8(min(255, (Int(v) * 255 + a / 2) / a)) }
                out.setRGBA(RGBA(r: straight(p.r), g: straight(p.g), b: straight(p.b), a: 255), x: x, y: y)
            }
        }
        return out
    }
}

/// JPEG APP2 `ICC_PROFILE` segments written byte by byte (ICC.1:2022 annex B.4): after SOI,
/// chunks of at most 65,519 bytes, each "ICC_PROFILE\0", its 1-based number and the count.
enum JPEGSegments {
    static func inserting(profile: Data, into jpeg: Data) -> Data {
        let bytes = [UInt8](profile)
        let chunkSize = 65_519
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { Array(bytes[$0..<min(bytes.count, $0 + chunkSize)]) }
        var out = Data(jpeg.prefix(2))  // SOI
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            out.append(contentsOf: [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)])
            out.append(contentsOf: Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(chunks.count)])
            out.append(contentsOf: chunk)
        }
        out.append(jpeg.dropFirst(2))
        return out
    }
}
#endif
