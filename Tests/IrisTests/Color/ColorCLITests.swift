#if canImport(CLCMS2)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// `iris convert` and `iris thumbnail` (run as a child process) write sRGB pixels without a
/// profile by default, matching the source's sRGB rendering; `--keep-profile` writes the
/// source's numbers with its profile, whose rendering matches the same way. Thumbnails are
/// held to the output codec's own error on an untagged copy plus one level.
@Suite("Colour management in the iris command line")
struct ColorCLITests {
    @Test("convert: sRGB pixels and no profile by default; --keep-profile keeps both", arguments: ColorReference.formats)
    func convert(output: ImageFormat) async throws {
        let directory = try CLITestSupport.directory("colour-convert")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = ColorReference.photo()
        let profile = try TestProfiles.adobeRGB()
        let input = directory.appendingPathComponent("adobe.png")
        try ColorReference.encoder(.png).encode(ColorReference.tagged(source, profile), options: ColorReference.options).write(to: input)
        let expected = try ColorReference.renderedToSRGB(source, from: profile)
        let name = "out.\(output.fileExtension ?? "img")"
        let lossless = output == .webp ? ["--lossless"] : []

        let converted = directory.appendingPathComponent(name)
        let run = try await CLITestSupport.runIris(["convert", "--quality", "95"] + lossless + [input.path, converted.path])
        #expect(run.status == 0, "\(run.standardError)")
        let plain = try ColorReference.decode(Data(contentsOf: converted), .keepSource)
        #expect(plain.colorSpace == .sRGB, "\(output): the default output carries \(plain.colorSpace)")
        let error = ColorReference.meanError(plain, expected)
        #expect(error <= 2, "\(output): mean error \(error)")

        let kept = directory.appendingPathComponent("kept-" + name)
        let keptRun = try await CLITestSupport.runIris(
            ["convert", "--keep-profile", "--quality", "95"] + lossless + [input.path, kept.path])
        #expect(keptRun.status == 0, "\(keptRun.standardError)")
        let tagged = try ColorReference.decode(Data(contentsOf: kept), .keepSource)
        #expect(tagged.colorSpace == .icc(profile), "\(output)")
        let rendered = try ColorReference.renderedToSRGB(tagged, from: profile)
        let keptError = ColorReference.meanError(rendered, expected)
        #expect(keptError <= 2, "\(output) --keep-profile: mean error \(keptError)")
        #expect(ColorReference.meanError(tagged, expected) >= 4, "\(output): kept numbers should be the source's, not sRGB")
    }

    @Test("thumbnail: sRGB at the box by default; --keep-profile keeps the profile", arguments: ColorReference.formats)
    func thumbnail(output: ImageFormat) async throws {
        let directory = try CLITestSupport.directory("colour-thumbnail")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = ColorReference.photo(width: 240, height: 160)
        let profile = try TestProfiles.displayP3()
        let input = directory.appendingPathComponent("p3.jpg")
        try ColorReference.encoder(.jpeg).encode(ColorReference.tagged(source, profile), options: ColorReference.options).write(to: input)
        let full = try ColorReference.renderedToSRGB(source, from: profile)
        let format = try #require(OutputFormatName.name(output))
        let lossless = output == .webp ? ["--quality", "100"] : ["--quality", "95"]

        // The same numbers untagged: what the output codec alone costs (WebP is lossy here).
        let untaggedInput = directory.appendingPathComponent("untagged.jpg")
        try ColorReference.encoder(.jpeg).encode(source, options: ColorReference.options).write(to: untaggedInput)

        let plainOut = directory.appendingPathComponent("plain")
        let run = try await CLITestSupport.runIris(
            ["thumbnail", "--size", "120", "--format", format, "--out", plainOut.path]
                + lossless + [input.path, untaggedInput.path])
        #expect(run.status == 0, "\(run.standardError)")
        let untagged = try ColorReference.decode(
            Data(contentsOf: plainOut.appendingPathComponent("untagged.\(output.fileExtension ?? format)")), .keepSource)
        let codecError = ColorReference.meanError(untagged, Resampler().resize(source, to: untagged.size))
        let plainFile = plainOut.appendingPathComponent("p3.\(output.fileExtension ?? format)")
        let plain = try ColorReference.decode(Data(contentsOf: plainFile), .keepSource)
        #expect(plain.size == PixelSize(width: 120, height: 80))
        #expect(plain.colorSpace == .sRGB)
        let expected = Resampler().resize(full, to: plain.size)
        let error = ColorReference.meanError(plain, expected)
        #expect(error <= codecError + 1, "\(output): mean error \(error), the codec alone \(codecError)")

        let keptOut = directory.appendingPathComponent("kept")
        let keptRun = try await CLITestSupport.runIris(
            [
                "thumbnail", "--keep-profile", "--size", "120", "--format", format,
                "--out", keptOut.path,
            ] + lossless + [input.path])
        #expect(keptRun.status == 0, "\(keptRun.standardError)")
        let tagged = try ColorReference.decode(
            Data(contentsOf: keptOut.appendingPathComponent("p3.\(output.fileExtension ?? format)")), .keepSource)
        #expect(tagged.colorSpace == .icc(profile))
        let keptError = ColorReference.meanError(try ColorReference.renderedToSRGB(tagged, from: profile), expected)
        #expect(keptError <= codecError + 1, "\(output) --keep-profile: mean error \(keptError), the codec alone \(codecError)")
    }
}

/// The `--format` names of the CLI.
enum OutputFormatName {
    static func name(_ format: ImageFormat) -> String? {
        switch format {
        case .jpeg: "jpeg"
        case .png: "png"
        case .webp: "webp"
        default: nil
        }
    }
}
#endif
