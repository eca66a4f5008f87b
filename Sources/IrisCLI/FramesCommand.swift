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
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let targetSize = size.map { CGSize(width: Double($0.width), height: Double($0.height)) }
        let request = ImageRequest(
            source: .file(URL(fileURLWithPath: input)), targetSize: targetSize,
            contentMode: fill ? .fill : .fit)
        let outcome = try await Interrupt.cancelling { await Self.writeFrames(of: request, to: directory) }
        if let failure = outcome.failure {
            Terminal.error("\(input): \(failure)")
            throw ExitCode.failure
        }
        if outcome.isInterrupted {
            Terminal.error(
                "interrupted: \(outcome.written) of \(outcome.total.map(String.init) ?? "?") frames written (no partial files left)")
            throw ExitCode(Interrupt.exitStatus)
        }
    }

    /// What ``writeFrames(of:to:)`` did.
    struct Outcome: Sendable {
        var written = 0
        /// The frame count, once the image is loaded.
        var total: Int?
        /// Why it failed (not set when it was interrupted).
        var failure: String?
        var isInterrupted: Bool { failure == nil && written < (total ?? 1) }
    }

    /// Loads `request` and writes each frame as `frame_NNNN.png` in `directory`, printing its
    /// index and duration; stops between frames when cancelled.
    static func writeFrames(of request: ImageRequest, to directory: URL) async -> Outcome {
        var outcome = Outcome()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let image = try await ImagePipeline.batch(jobs: 1).image(for: request)
            let count = image.animation?.frameCount ?? 1
            outcome.total = count
            for index in 0..<count {
                let frame = try await index == 0 ? image.bitmap : image.animation!.frame(at: index)
                try Task.checkCancellation()
                let name = String(format: "frame_%04d.png", index)
                try OutputFile.write(PNGOutput.encode(frame), to: directory.appendingPathComponent(name))
                outcome.written += 1
                let milliseconds = image.animation.map { Int(($0.duration(at: index) * 1000).rounded()) } ?? 0
                print("\(index) \(milliseconds)")
            }
        } catch {
            if !Task.isCancelled { outcome.failure = readable(error) }
        }
        return outcome
    }
}

/// PNG, the format that keeps every frame's alpha exactly.
enum PNGOutput {
    static func encode(_ bitmap: Bitmap) throws -> Data {
        try OutputFormat.png.encode(bitmap, options: EncodeOptions())
    }
}
