import ArgumentParser
import Foundation
import Iris
import IrisSamples

/// `iris samples`: writes the deterministic sample images the demo and benchmarks use.
struct SamplesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Write deterministic photo-like sample images (for the demo and benchmarks)."
    )

    @Flag(
        name: .long,
        help: "Write the benchmark corpus (12 MP JPEGs, one with EXIF orientation 6, 3 MP PNG and WebP, a 100 MP PNG, 48 and 50 MP PNGs).")
    var bench = false

    @Option(name: .long, help: "Output directory.")
    var out = "samples"

    func run() async throws {
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if !bench { try await AnimatedAndRotatedSamples.write(to: directory) }
        for sample in bench ? Sample.benchCorpus : Sample.demoSet {
            let url = directory.appendingPathComponent(sample.name)
            if FileManager.default.fileExists(atPath: url.path) { continue }
            let bitmap = SampleImages.photo(
                width: sample.width, height: sample.height, seed: sample.seed,
                format: sample.pixelFormat, alpha: sample.pixelFormat.hasAlpha)
            guard let encoder = ImageEncoders.encoder(for: sample.format) else {
                throw ImageError.unsupportedFormat(sample.format)
            }
            let encoded = try encoder.encode(bitmap, options: sample.options)
            try (sample.exifOrientation.map { AnimatedAndRotatedSamples.withOrientation($0, encoded) } ?? encoded).write(
                to: url, options: .atomic)
            Terminal.error("wrote \(url.path) (\(sample.width)×\(sample.height) \(sample.format))")
        }
    }
}

/// One sample image to write.
struct Sample {
    var name: String
    var width: Int
    var height: Int
    var format: ImageFormat
    var pixelFormat: PixelFormat = .rgbx8
    var options = EncodeOptions()
    var seed: UInt64 = 1
    /// An EXIF orientation to write (JPEG only), for inputs that must be turned upright.
    var exifOrientation: UInt16?

    /// A handful of everyday images for `make demo`.
    static let demoSet: [Sample] = [
        Sample(name: "landscape.jpg", width: 2400, height: 1600, format: .jpeg, options: EncodeOptions(quality: 90), seed: 1),
        Sample(
            name: "progressive.jpg", width: 1920, height: 1280, format: .jpeg, options: EncodeOptions(quality: 88, progressive: true),
            seed: 2),
        Sample(name: "portrait.png", width: 900, height: 1400, format: .png, pixelFormat: .rgba8, seed: 3),
        Sample(name: "grey.jpg", width: 1200, height: 900, format: .jpeg, pixelFormat: .gray8, seed: 4),
        Sample(name: "photo.webp", width: 1600, height: 1200, format: .webp, options: EncodeOptions(quality: 85), seed: 5),
        Sample(
            name: "sticker.webp", width: 800, height: 800, format: .webp, pixelFormat: .rgba8, options: EncodeOptions(lossless: true),
            seed: 6),
    ]

    /// The benchmark corpus of `Benchmarks/runners/thumbnail`.
    static let benchCorpus: [Sample] = [
        Sample(
            name: "photo-4032x3024-baseline.jpg", width: 4032, height: 3024, format: .jpeg, options: EncodeOptions(quality: 90), seed: 11),
        Sample(
            name: "photo-4032x3024-exif6.jpg", width: 4032, height: 3024, format: .jpeg, options: EncodeOptions(quality: 90), seed: 16,
            exifOrientation: 6),
        Sample(
            name: "photo-4032x3024-progressive.jpg", width: 4032, height: 3024, format: .jpeg,
            options: EncodeOptions(quality: 90, progressive: true), seed: 12),
        Sample(name: "photo-2048x1536-rgba.png", width: 2048, height: 1536, format: .png, pixelFormat: .rgba8, seed: 13),
        Sample(name: "photo-2048x1536.webp", width: 2048, height: 1536, format: .webp, options: EncodeOptions(quality: 90), seed: 14),
        Sample(name: "huge-10000x10000.png", width: 10000, height: 10000, format: .png, seed: 15),
        // The PNG decoder's memory bound at the sizes of a large camera or scan (48 and 50 MP).
        Sample(name: "photo-8000x6000.png", width: 8000, height: 6000, format: .png, seed: 17),
        Sample(name: "photo-8192x6144-rgba.png", width: 8192, height: 6144, format: .png, pixelFormat: .rgba8, seed: 18),
    ]
}
