import ArgumentParser
import Foundation
import Iris

/// `iris convert`: decode (through the pipeline), orient and encode by the output's extension;
/// an animation stays one when written as WebP or GIF. Colour under alpha is kept as stored
/// (straight alpha from decoder to encoder), so a PNG or WebP written again keeps every pixel's
/// colour.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image; the output format follows the output file's extension."
    )

    @Option(name: .long, help: "Quality 0–100 for JPEG and lossy WebP.")
    var quality = 85

    @Flag(name: .long, help: "Write a progressive JPEG.")
    var progressive = false

    @Flag(name: .long, help: "Write lossless WebP.")
    var lossless = false

    @Flag(
        name: .long,
        help:
            "Keep the source's colour profile: pixels as stored, the profile embedded. By default pixels with a profile are converted to sRGB and written without one (what every viewer assumes of an untagged image)."
    )
    var keepProfile = false

    @Argument(help: "Input image.")
    var input: String

    @Argument(help: "Output file (.jpg, .jpeg, .png, .webp, .avif or .gif).")
    var output: String

    @Option(name: .long, help: "Colour (RRGGBB) under transparent pixels when writing JPEG.")
    var background = HexColour(RGBA(r: 255, g: 255, b: 255))

    func run() async throws {
        do {
            let format = try OutputFormat.fromExtension(of: output)
            var decoders = ImageDecoderRegistry.standard
            decoders.keepsStraightAlpha = true
            let image = try await ImagePipeline.batch(jobs: 1, decoders: decoders, keepsProfile: keepProfile)
                .image(for: ImageRequest(source: .file(URL(fileURLWithPath: input))))
            let writer = ImageOutput(
                format: format, options: EncodeOptions(quality: quality, progressive: progressive, lossless: lossless),
                keepsAnimation: format.writesAnimations, background: background.rgba)
            if let frames = image.animation?.frameCount, frames > 1, !format.writesAnimations {
                Terminal.error(
                    "\(input): \(frames) frames; .\(format.fileExtension) keeps the first (write .webp or .gif to keep them all)")
            }
            let encoded = try await writer.encode(image).data
            try OutputFile.write(encoded, to: URL(fileURLWithPath: output))
        } catch let error as ValidationError {
            throw error
        } catch {
            Terminal.error("\(input): \(readable(error))")
            throw ExitCode.failure
        }
    }
}

/// The formats the CLI writes (Iris's ``OutputFormat``), named by an output file's extension
/// or by `--format`.
extension OutputFormat: ExpressibleByArgument {
    /// The format for a file name's extension.
    static func fromExtension(of path: String) throws -> OutputFormat {
        let name = URL(fileURLWithPath: path).pathExtension
        guard let format = OutputFormat(extension: name) else {
            throw ValidationError("cannot write .\(name.lowercased()) files; use .jpg, .png, .webp, .avif or .gif")
        }
        return format
    }

    /// Encodes with the platform's encoder.
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws -> Data {
        guard let encoder = ImageEncoders.encoder(for: imageFormat) else {
            throw ImageError.unsupportedFormat(imageFormat)
        }
        return try encoder.encode(bitmap, options: options)
    }
}
