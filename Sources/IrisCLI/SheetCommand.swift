import ArgumentParser
import Foundation
import Iris

/// `iris sheet`: a contact sheet (index.html) of thumbnails, each beside its source's size,
/// format, frames, load time and bytes. Animations stay animated (WebP), alpha stays (PNG).
/// Thumbnails go through the pipeline, at most `--jobs` decoded at once.
struct SheetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Thumbnail images into DIR/thumbs and write DIR/index.html, a contact sheet of them.",
        discussion: """
            Thumbnails are named like those of `iris thumbnail`: DIR/thumbs/<input name without \
            extension>.<jpg|png|webp>, keeping the input's extension when two inputs' names differ \
            only in it; inputs that would still share a thumbnail stop the command before anything \
            is written. Ctrl-C stops it, leaves no partial file and writes no index.html.
            """
    )

    @Option(name: .long, help: "Thumbnail box: W or WxH.")
    var size = ThumbnailSize(width: 240, height: 240)

    @Option(name: .long, help: "Images decoded at once (default: number of cores).")
    var jobs = IrisCommand.cores

    @Option(name: .long, help: "Output directory.")
    var out = "sheet"

    @Argument(help: "Image files.")
    var files: [String]

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let thumbs = directory.appendingPathComponent("thumbs", isDirectory: true)
        let plan: OutputPlan
        do { plan = try OutputPlan(inputs: files, directory: thumbs, extensions: ["jpg", "png", "webp"]) } catch {
            Terminal.error("iris sheet: \(error)")
            throw ExitCode.failure
        }
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        let job = SheetJob(pipeline: .batch(jobs: jobs), box: PixelSize(width: size.width, height: size.height), plan: plan)
        let batch = Batch(inputs: files, jobs: jobs, report: BatchReport(total: files.count, noun: "thumbnails", showsBar: false))
        let start = ContinuousClock.now
        let (entries, interrupted) = try await Interrupt.cancelling {
            let entries = await batch.run { index, path in
                let entry = try await job.run(index, path: path)
                return (entry, directory.appendingPathComponent(entry.thumbnail).path)
            }
            return (entries.compactMap { $0 }, Task.isCancelled)
        }
        let failures = batch.report.finish(elapsed: ContinuousClock.now - start, interrupted: interrupted)
        if interrupted { throw ExitCode(Interrupt.exitStatus) }
        let page = directory.appendingPathComponent("index.html")
        try OutputFile.write(Data(ContactSheet(entries: entries).html.utf8), to: page)
        Terminal.error("wrote \(page.path) (\(entries.count) images)")
        if failures > 0 { throw ExitCode.failure }
    }
}

/// One card of the sheet: a thumbnail through the pipeline (fit in the box), written as
/// animated WebP, PNG (alpha) or JPEG.
struct SheetJob: Sendable {
    let pipeline: ImagePipeline
    let box: PixelSize
    let plan: OutputPlan

    /// Thumbnails input `index` (at `path`); the entry's ``ContactSheet/Entry/thumbnail`` is the
    /// file's path relative to the sheet (`thumbs/<name>`).
    func run(_ index: Int, path: String) async throws -> ContactSheet.Entry {
        let input = URL(fileURLWithPath: path)
        let clock = ContinuousClock()
        let start = clock.now
        let image = try await pipeline.image(for: ThumbnailShape.fit.request(for: input, box: box))
        let loadTime = clock.now - start
        let output = ImageOutput(
            format: image.bitmap.format.hasAlpha ? .png : .jpeg, options: EncodeOptions(quality: 85),
            keepsAnimation: true, background: RGBA(r: 255, g: 255, b: 255))
        let (encoded, fileExtension) = try await output.encode(image)
        try Task.checkCancellation()
        let written = plan.url(for: index, fileExtension: fileExtension)
        try OutputFile.write(encoded, to: written)
        let sourceBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        return ContactSheet.Entry(
            source: input.lastPathComponent,
            thumbnail: plan.directory.lastPathComponent + "/" + written.lastPathComponent, image: image,
            decodeMilliseconds: Double(loadTime.components.attoseconds) / 1e15
                + Double(loadTime.components.seconds) * 1000,
            sourceBytes: sourceBytes, thumbnailBytes: encoded.count)
    }
}
