#if DevelopmentTools
import ArgumentParser
import Dispatch
import Foundation
import Iris
import Synchronization

/// `iris thumbnail`: one small image per input, decoded at the target size, N at a time.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a thumbnail of each image, shrinking while decoding."
    )

    @Option(name: .long, help: "Target size: W (a square box) or WxH.")
    var size: ThumbnailSize = ThumbnailSize(width: 256, height: 256)

    @Flag(name: .long, help: "Fit inside the box (default).")
    var fit = false

    @Flag(name: .long, help: "Cover the box (no cropping).")
    var fill = false

    @Option(name: .long, help: "Output format: jpeg, png or webp.")
    var format: OutputFormat = .jpeg

    @Option(name: .long, help: "Quality 0–100 for JPEG and WebP.")
    var quality = 85

    @Flag(name: .long, help: "Write animated inputs as animated WebP thumbnails.")
    var animated = false

    @Option(name: .long, help: "Colour (RRGGBB) under transparent pixels in JPEG thumbnails.")
    var background = HexColour(RGBA(r: 255, g: 255, b: 255))

    @Option(name: .long, help: "Images processed at once (default: number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Output directory.")
    var out = "thumbnails"

    @Argument(help: "Image files.")
    var files: [String]

    func validate() throws {
        if fit && fill { throw ValidationError("choose one of --fit and --fill") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(0...100).contains(quality) { throw ValidationError("--quality must be 0–100") }
    }

    func run() throws {
        let outDirectory = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: outDirectory, withIntermediateDirectories: true)
        let output = ImageOutput(format: format, options: EncodeOptions(quality: quality), keepsAnimation: animated,
                                 background: background.rgba)
        let job = ThumbnailJob(target: DecodeTarget(width: size.width, height: size.height, contentMode: fill ? .fill : .fit),
                               output: output, outDirectory: outDirectory)
        let report = ThumbnailRun(total: files.count, showsBar: Terminal.isInteractive)
        let start = ContinuousClock.now
        let next = Atomic<Int>(0)
        let files = self.files
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(files.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let path = files[index]
                do {
                    let written = try job.run(path)
                    report.succeeded(path, output: written)
                } catch {
                    report.failed(path, reason: readable(error))
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        let failures = report.finish(elapsed: elapsed)
        if failures > 0 { throw ExitCode.failure }
    }
}

/// One thumbnail: read, decode at the target, encode, write.
struct ThumbnailJob: Sendable {
    let target: DecodeTarget
    let output: ImageOutput
    let outDirectory: URL

    /// Thumbnails the file at `path`; returns the output path.
    func run(_ path: String) throws -> String {
        let input = URL(fileURLWithPath: path)
        // Mapped, not read: a huge PNG's pages are given back as they are decoded.
        let image = try ImageDecoderRegistry.standard.decode(contentsOf: input, options: DecodeOptions(target: target))
        let (encoded, fileExtension) = try output.encodeBlocking(image)
        let written = outDirectory
            .appendingPathComponent(input.deletingPathExtension().lastPathComponent)
            .appendingPathExtension(fileExtension)
        try encoded.write(to: written, options: .atomic)
        return written.path
    }
}

/// Progress and summary of a thumbnail run, safe to update from many threads.
final class ThumbnailRun: Sendable {
    private struct State {
        var done = 0
        var failures: [(String, String)] = []
    }
    private let state = Mutex(State())
    private let total: Int
    private let showsBar: Bool

    init(total: Int, showsBar: Bool) {
        self.total = total
        self.showsBar = showsBar
    }

    func succeeded(_ path: String, output: String) {
        state.withLock { state in
            state.done += 1
            if showsBar { Terminal.progressBar(done: state.done, total: total, failed: state.failures.count) }
            else { Terminal.error("[\(state.done)/\(total)] \(path) -> \(output)") }
        }
    }

    func failed(_ path: String, reason: String) {
        state.withLock { state in
            state.done += 1
            state.failures.append((path, reason))
            if showsBar { Terminal.progressBar(done: state.done, total: total, failed: state.failures.count) }
            else { Terminal.error("[\(state.done)/\(total)] \(path): FAILED: \(reason)") }
        }
    }

    /// Prints the summary; returns the number of failures.
    func finish(elapsed: Duration) -> Int {
        state.withLock { state in
            if showsBar { Terminal.endProgressBar() }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let ok = state.done - state.failures.count
            let rate = seconds > 0 ? Double(ok) / seconds : 0
            Terminal.error(String(format: "%d thumbnails in %.2f s (%.1f images/s), %d failed", ok, seconds, rate, state.failures.count))
            for (path, reason) in state.failures { Terminal.error("  \(path): \(reason)") }
            return state.failures.count
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
              let height = parts.count == 2 ? Int(parts[1]) : width, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    var defaultValueDescription: String { width == height ? "\(width)" : "\(width)x\(height)" }
}
#endif
