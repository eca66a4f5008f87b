import Foundation
import Iris
@testable import IrisCLI
import IrisSamples
import Testing
import IrisTestSupport

/// `iris convert … x.gif` and `iris thumbnail --format gif`, run as a user runs them: stills
/// and animations written as GIF, the animation kept.
@Suite("CLI GIF output", .enabled(if: ImageEncoders.animationEncoder(for: .gif) != nil, "no GIF encoder on this platform"))
struct GIFOutputTests {
    /// A 3-frame animated WebP (lossless) of 48×32 photo frames, 100, 200 and 300 ms, looping twice.
    static func writeAnimatedWebP(_ url: URL) async throws {
        let frames = (1...3).map { SampleImages.photo(width: 48, height: 32, seed: UInt64($0)) }
        let animation = Animation(frames: frames, durations: [0.1, 0.2, 0.3], loopCount: 2)
        let encoder = try #require(ImageEncoders.animationEncoder(for: .webp))
        try await encoder.encode(animation, options: EncodeOptions(lossless: true)).write(to: url)
    }

    @Test("`.gif` is a format the CLI writes: by extension and as --format, and it keeps animations")
    func outputFormat() throws {
        #expect(try OutputFormat.fromExtension(of: "a/b.GIF") == .gif)
        #expect(OutputFormat(argument: "gif") == .gif && OutputFormat.gif.fileExtension == "gif" && OutputFormat.gif.writesAnimations)
        #expect(throws: (any Error).self) { try OutputFormat.fromExtension(of: "x.bmp") }
    }

    @Test("convert writes a still PNG as GIF and an animated WebP as an animated GIF, frames, delays and loops kept")
    func convert() async throws {
        let directory = try CLITestSupport.directory("gif-convert")
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("still.png"), stillGIF = directory.appendingPathComponent("still.gif")
        try CLITestSupport.writePhoto(png, width: 120, height: 80, format: .png)
        let still = try await CLITestSupport.runIris(["convert", png.path, stillGIF.path])
        #expect(still.status == 0, "\(still.standardError)")
        let decodedStill = try ImageDecoderRegistry.standard.decode(contentsOf: stillGIF)
        #expect(
            decodedStill.format == .gif && decodedStill.bitmap.size == PixelSize(width: 120, height: 80) && decodedStill.animation == nil)

        let webp = directory.appendingPathComponent("moving.webp"), animatedGIF = directory.appendingPathComponent("moving.gif")
        try await Self.writeAnimatedWebP(webp)
        let animated = try await CLITestSupport.runIris(["convert", webp.path, animatedGIF.path])
        #expect(animated.status == 0 && !animated.standardError.contains("keeps the first"), "\(animated.standardError)")
        let decoded = try ImageDecoderRegistry.standard.decode(contentsOf: animatedGIF)
        let animation = try #require(decoded.animation)
        #expect(decoded.format == .gif && animation.frameCount == 3 && animation.loopCount == 2)
        #expect((0..<3).map { animation.duration(at: $0) } == [0.1, 0.2, 0.3])
    }

    @Test("thumbnail --format gif writes GIF thumbnails; with --animated an animation stays one, as GIF")
    func thumbnail() async throws {
        let directory = try CLITestSupport.directory("gif-thumbnail")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("photo.jpg"), webp = directory.appendingPathComponent("moving.webp")
        try CLITestSupport.writePhoto(photo, width: 400, height: 300)
        try await Self.writeAnimatedWebP(webp)
        let out = directory.appendingPathComponent("out")
        let run = try await CLITestSupport.runIris([
            "thumbnail", "--format", "gif", "--animated", "--size", "24", "--out", out.path,
            photo.path, webp.path,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(CLITestSupport.fileNames(in: out) == ["moving.gif", "photo.gif"])
        let still = try ImageDecoderRegistry.standard.decode(contentsOf: out.appendingPathComponent("photo.gif"))
        #expect(still.format == .gif && still.bitmap.size == PixelSize(width: 24, height: 18))
        let moving = try ImageDecoderRegistry.standard.decode(contentsOf: out.appendingPathComponent("moving.gif"))
        #expect(moving.format == .gif && moving.bitmap.size == PixelSize(width: 24, height: 16) && moving.animation?.frameCount == 3)
    }
}
