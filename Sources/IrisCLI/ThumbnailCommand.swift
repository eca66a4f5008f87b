import ArgumentParser
import Foundation
import Iris

/// `iris thumbnail`: one small image per input through the pipeline (decoded at the target
/// size), at most `--jobs` decoded at once.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a thumbnail of each image, shrinking while decoding.",
        discussion: """
            Inputs: image files, or folders: their images and videos (by extension); with -r their \
            subfolders too, mirrored under OUT (photos/2024/a.jpg → OUT/2024/a.jpg).

            Output names: OUT/<input name without extension>.<format>. Inputs whose names differ only \
            in the extension (a.jpg, a.png) keep it: a.jpg.jpg, a.png.jpg. Inputs that would still \
            share an output (x/a.jpg, y/a.jpg), or an output that would replace an input, stop the \
            command before anything is written. An existing output of the same name is replaced.

            Each file is written under a temporary name and renamed when complete: Ctrl-C stops the \
            batch, leaves no partial file and says what was written (exit status 130).
            """
    )

    @Option(name: .long, help: "Target size: W (a square box) or WxH.")
    var size: ThumbnailSize = ThumbnailSize(width: 256, height: 256)

    @Flag(help: "How the thumbnail meets the box.")
    var shape: ThumbnailShape = .fit

    @Option(name: .long, help: "Output format: jpeg, png, webp, avif or gif.")
    var format: OutputFormat = .jpeg

    @Option(name: .long, help: "Quality 0–100 for JPEG and WebP.")
    var quality = 85

    @Flag(name: .long, help: "Write animated inputs as animated thumbnails: GIF with --format gif, else WebP.")
    var animated = false

    @Option(name: .long, help: "For videos: the frame shown at this many seconds. Default: the first frame that is not black.")
    var at: Double?

    @Option(name: .long, help: "Colour (RRGGBB) under transparent pixels in JPEG thumbnails.")
    var background = HexColour(RGBA(r: 255, g: 255, b: 255))

    @Flag(
        name: .long,
        help:
            "Keep the source's colour profile: pixels as stored, the profile embedded. By default pixels with a profile are converted to sRGB and written without one (what every viewer assumes of an untagged image)."
    )
    var keepProfile = false

    @Option(name: .long, help: "Images decoded at once (default: number of cores).")
    var jobs = IrisCommand.cores

    @Option(name: .long, help: "Output directory.")
    var out = "thumbnails"

    @Flag(name: [.customShort("r"), .long], help: "Take the subfolders of folders given too, mirroring them under --out.")
    var recursive = false

    @Argument(help: "Image files, or folders of them.")
    var files: [String]

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(0...100).contains(quality) { throw ValidationError("--quality must be 0–100") }
        if let at, !(at >= 0 && at.isFinite) { throw ValidationError("--at must be a time in seconds, 0 or more") }
    }

    func run() async throws {
        let outDirectory = URL(fileURLWithPath: out, isDirectory: true)
        let extensions = [format.fileExtension] + (animated && !format.writesAnimations ? ["webp"] : [])
        let inputs: [InputFile]
        let plan: OutputPlan
        do {
            let expansion = try InputFiles.expand(files, recursive: recursive)
            for folder in expansion.skippedFolders { Terminal.error("iris thumbnail: skipped the folder \(folder) (-r takes subfolders)") }
            inputs = expansion.files
            plan = try OutputPlan(inputs: inputs, directory: outDirectory, extensions: extensions)
        } catch {
            Terminal.error("iris thumbnail: \(error)")
            throw ExitCode.failure
        }
        for folder in plan.folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        var decoders = ImageDecoderRegistry.standard
        if let at { decoders.videoPoster = .at(seconds: at) }
        decoders.decodesAnimations = animated  // a still thumbnail needs no frame walk
        let job = ThumbnailJob(
            pipeline: .batch(jobs: jobs, decoders: decoders, keepsProfile: keepProfile), shape: shape,
            box: PixelSize(width: size.width, height: size.height),
            output: ImageOutput(
                format: format, options: EncodeOptions(quality: quality),
                keepsAnimation: animated, background: background.rgba),
            plan: plan)
        let batch = Batch(
            inputs: inputs.map(\.path), jobs: jobs,
            report: BatchReport(total: inputs.count, noun: "thumbnails", showsBar: Terminal.isInteractive))
        let start = ContinuousClock.now
        let interrupted = try await Interrupt.cancelling {
            _ = await batch.run { index, path in
                ((), try await job.run(index, path: path).path)
            }
            return Task.isCancelled
        }
        let failures = batch.report.finish(elapsed: ContinuousClock.now - start, interrupted: interrupted)
        if interrupted { throw ExitCode(Interrupt.exitStatus) }
        if failures > 0 { throw ExitCode.failure }
    }
}

extension ThumbnailShape: EnumerableFlag {
    static func help(for value: ThumbnailShape) -> ArgumentHelp? {
        switch value {
        case .fit: "Fit inside the box."
        case .fill: "Cover the box, keeping the whole image (one side may be larger than the box)."
        case .crop: "Exactly W×H: cover the box, then cut the overflow off evenly (centre crop)."
        }
    }
}

/// `W` or `WxH`.
struct ThumbnailSize: ExpressibleByArgument, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            let width = Int(parts[0]), width > 0,
            let height = parts.count == 2 ? Int(parts[1]) : width, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }

    var defaultValueDescription: String { width == height ? "\(width)" : "\(width)x\(height)" }
}
