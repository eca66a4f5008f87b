#if canImport(CLCMS2)
import CLCMS2
import Foundation
import IrisSamples
import Testing
@testable import Iris

/// Real ICC profiles for the colour tests: Adobe RGB, ProPhoto, sRGB and one with red and green
/// swapped from Debian's colord-data, a CMYK one from Ghostscript's (libgs-common; both
/// installed by scripts/install-deps), and Display P3 built by Little CMS from its primaries.
enum TestProfiles {
    static let colord = "/usr/share/color/icc/colord/"

    /// The profile in the file at `path`.
    static func file(_ path: String) throws -> ICCProfile {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(ICCProfile(data: data), "\(path) is not an ICC profile")
    }

    static func adobeRGB() throws -> ICCProfile { try file(colord + "AdobeRGB1998.icc") }
    static func proPhoto() throws -> ICCProfile { try file(colord + "ProPhotoRGB.icc") }
    static func colordSRGB() throws -> ICCProfile { try file(colord + "sRGB.icc") }
    static func swappedRedAndGreen() throws -> ICCProfile { try file(colord + "SwappedRedAndGreen.icc") }
    static func ghostscriptCMYK() throws -> ICCProfile { try file("/usr/share/color/icc/ghostscript/default_cmyk.icc") }
    static func ghostscriptGray() throws -> ICCProfile { try file("/usr/share/color/icc/ghostscript/sgray.icc") }

    /// Display P3 (SMPTE EG 432-1: DCI-P3 primaries, D65 white, sRGB's tone curve), made and
    /// serialized by Little CMS, with the description "Display P3 (Iris test)".
    static func displayP3() throws -> ICCProfile {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
            Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = try #require(cmsBuildParametricToneCurve(nil, 4, &parameters))
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = try #require(cmsCreateRGBProfile(&white, &primaries, &curves))
        defer { cmsCloseProfile(profile) }
        let description = try #require(cmsMLUalloc(nil, 1))
        defer { cmsMLUfree(description) }
        cmsMLUsetASCII(description, "en", "US", "Display P3 (Iris test)")
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(description))
        var size: cmsUInt32Number = 0
        #expect(cmsSaveProfileToMem(profile, nil, &size) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        #expect(cmsSaveProfileToMem(profile, &bytes, &size) != 0)
        return try #require(ICCProfile(data: Data(bytes)))
    }

    /// The wide-gamut profiles the conversion tests run over, by name.
    static func wideGamut() throws -> [(String, ICCProfile)] {
        [("Display P3", try displayP3()), ("Adobe RGB", try adobeRGB()), ("ProPhoto", try proPhoto())]
    }
}

/// Little CMS used directly, as a reference independent of Iris's own conversion code.
enum ColorReference {
    /// `bitmap`'s numbers (opaque RGB) read in `profile` and rendered to sRGB by Little CMS
    /// (relative colorimetric): an `rgbx8` bitmap.
    static func renderedToSRGB(_ bitmap: Bitmap, from profile: ICCProfile) throws -> Bitmap {
        let rgbx = bitmap.converted(to: .rgba8).converted(to: .rgbx8)  // packed rows
        var pixels = rgbx.pixels
        try transform(
            profile, inputFormat: IRIS_LCMS_TYPE_RGBA_8, outputFormat: IRIS_LCMS_TYPE_RGBA_8,
            input: pixels, output: &pixels, count: rgbx.width * rgbx.height)
        return try #require(Bitmap(width: rgbx.width, height: rgbx.height, format: .rgbx8, bytesPerRow: rgbx.bytesPerRow, pixels: pixels))
    }

    /// Rows of CMYK samples (`width` × `height`, 4 bytes a pixel, stored inverted when
    /// `inverted`) rendered to sRGB through `profile` by Little CMS: an `rgbx8` bitmap.
    static func renderedCMYK(_ cmyk: [UInt8], width: Int, height: Int, inverted: Bool, profile: ICCProfile) throws -> Bitmap {
        var output = [UInt8](repeating: 255, count: width * height * 4)
        try transform(
            profile, inputFormat: inverted ? IRIS_LCMS_TYPE_CMYK_8_REV : IRIS_LCMS_TYPE_CMYK_8,
            outputFormat: IRIS_LCMS_TYPE_RGBA_8, input: cmyk, output: &output, count: width * height)
        return try #require(Bitmap(width: width, height: height, format: .rgbx8, pixels: output))
    }

    /// Grey levels read in the grey `profile`, rendered to sRGB by Little CMS: the green channel
    /// of each (neutral) result.
    static func renderedGray(_ levels: [UInt8], profile: ICCProfile) throws -> [UInt8] {
        var output = [UInt8](repeating: 255, count: levels.count * 4)
        try transform(
            profile, inputFormat: IRIS_LCMS_TYPE_GRAY_8, outputFormat: IRIS_LCMS_TYPE_RGBA_8,
            input: levels, output: &output, count: levels.count)
        return (0..<levels.count).map { output[$0 * 4 + 1] }
    }

    private static func transform(
        _ profile: ICCProfile, inputFormat: cmsUInt32Number, outputFormat: cmsUInt32Number,
        input: [UInt8], output: inout [UInt8], count: Int
    ) throws {
        let source = try #require(profile.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        defer { cmsCloseProfile(source) }
        let sRGB = try #require(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(sRGB) }
        let flags =
            cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE)
            | (inputFormat == IRIS_LCMS_TYPE_RGBA_8 ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        let transform = try #require(
            cmsCreateTransform(
                source, inputFormat, sRGB, outputFormat,
                cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags))
        defer { cmsDeleteTransform(transform) }
        let copy = input
        copy.withUnsafeBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                cmsDoTransform(transform, inBytes.baseAddress, outBytes.baseAddress, cmsUInt32Number(count))
            }
        }
    }

    /// Mean absolute difference of the colour channels of two same-size pictures, in levels.
    static func meanError(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size, "\(a.size) vs \(b.size)")
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(total) / Double(max(1, a.width * a.height * 3))
    }

    /// A photo-like opaque picture whose numbers are meant in a wide-gamut space: saturated
    /// colours, where colour management shows most.
    static func photo(width: Int = 192, height: Int = 128, seed: UInt64 = 7) -> Bitmap {
        SampleImages.photo(width: width, height: height, seed: seed)
    }

    /// `bitmap` tagged with `profile`.
    static func tagged(_ bitmap: Bitmap, _ profile: ICCProfile) -> Bitmap {
        var copy = bitmap
        copy.colorSpace = .icc(profile)
        return copy
    }

    /// `data` decoded by the standard registry with `colorManagement`, at `target` if given.
    static func decode(_ data: Data, _ colorManagement: ColorManagement, target: DecodeTarget? = nil) throws -> Bitmap {
        try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: target, colorManagement: colorManagement)).bitmap
    }

    /// `data` decoded whole (an animation keeps its frames) with `colorManagement`.
    static func decodeImage(_ data: Data, _ colorManagement: ColorManagement) throws -> LoadedImage {
        try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(colorManagement: colorManagement))
    }

    /// The encoder for `format`.
    static func encoder(_ format: ImageFormat) throws -> any ImageEncoding {
        try #require(ImageEncoders.encoder(for: format))
    }

    /// Quality settings that keep the codec's own error small next to the colour error tested:
    /// JPEG at 95, WebP and PNG lossless.
    static let options = EncodeOptions(quality: 95, lossless: true)

    /// The formats every conversion test runs over.
    static let formats: [ImageFormat] = [.jpeg, .png, .webp]
}
#endif
