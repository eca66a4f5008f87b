#if DevelopmentTools
import ArgumentParser
import Foundation
import Iris

/// `iris frames`: every composed frame of an animation as a PNG, at a target size if given
/// (loaded through the pipeline; frames are made on demand at that size).
struct FramesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Write every frame of an animated image as frame_0000.png…; print index and duration (ms) per frame."
    )

    @Option(name: .long, help: "Target size: W (a square box) or WxH. Default: the canvas size.")
    var size: ThumbnailSize?

    @Flag(name: .long, help: "Cover the box instead of fitting inside it.")
    var fill = false

    @Option(name: .long, help: "Output directory.")
    var out = "frames"

    @Argument(help: "Image file (GIF, APNG, animated WebP; a still image gives one frame).")
    var input: String

    func run() async throws {
        do {
            let directory = URL(fileURLWithPath: out, isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let targetSize = size.map { CGSize(width: Double($0.width), height: Double($0.height)) }
            let request = ImageRequest(source: .file(URL(fileURLWithPath: input)), targetSize: targetSize,
                                       contentMode: fill ? .fill : .fit)
            let image = try await ImagePipeline.batch(jobs: 1).image(for: request)
            let count = image.animation?.frameCount ?? 1
            for index in 0..<count {
                let frame = try await index == 0 ? image.bitmap : image.animation!.frame(at: index)
                let name = String(format: "frame_%04d.png", index)
                try OutputFile.write(PNGOutput.encode(frame), to: directory.appendingPathComponent(name))
                let milliseconds = image.animation.map { Int(($0.duration(at: index) * 1000).rounded()) } ?? 0
                print("\(index) \(milliseconds)")
            }
        } catch {
            Terminal.error("\(input): \(readable(error))")
            throw ExitCode.failure
        }
    }
}

/// PNG, the format that keeps every frame's alpha exactly.
enum PNGOutput {
    static func encode(_ bitmap: Bitmap) throws -> Data {
        try OutputFormat.png.encode(bitmap, options: EncodeOptions())
    }
}
#endif
