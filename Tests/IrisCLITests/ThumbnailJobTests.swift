import Foundation
import Iris
@testable import IrisCLI
import Testing
import IrisTestSupport

/// The path `iris thumbnail` takes, on real encoded files: the batch pipeline (decode at the
/// target, processors), bounded batches, encoding and the planned, whole-file writes.
@Suite("CLI thumbnail job")
struct ThumbnailJobTests {
    /// Runs `shape` thumbnails of `inputs` into a fresh directory the way the command does;
    /// returns the directory and the sizes of the files written, in input order.
    func thumbnails(
        _ inputs: [URL], shape: ThumbnailShape, box: PixelSize, jobs: Int = 2,
        format: OutputFormat = .jpeg
    ) async throws -> (URL, [PixelSize?]) {
        let out = try CLITestSupport.directory("thumbs")
        let paths = inputs.map(\.path)
        let plan = try OutputPlan(inputs: paths, directory: out, extensions: [format.fileExtension])
        let job = ThumbnailJob(
            pipeline: .batch(jobs: jobs), shape: shape, box: box,
            output: ImageOutput(
                format: format, options: EncodeOptions(quality: 85), keepsAnimation: false,
                background: RGBA(r: 255, g: 255, b: 255)),
            plan: plan)
        let batch = Batch(inputs: paths, jobs: jobs, report: BatchReport(total: paths.count, noun: "thumbnails", showsBar: false))
        let written = await batch.run { index, path in
            let url = try await job.run(index, path: path)
            return (url, url.path)
        }
        return (out, try written.map { try $0.map(CLITestSupport.decodedSize) })
    }

    @Test("--fit, --fill and --crop give the sizes they promise")
    func shapes() async throws {
        let inputs = try CLITestSupport.directory("shapes")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let wide = inputs.appendingPathComponent("wide.jpg"), tall = inputs.appendingPathComponent("tall.png")
        try CLITestSupport.writePhoto(wide, width: 400, height: 300)
        try CLITestSupport.writePhoto(tall, width: 240, height: 480, format: .png, seed: 2)
        let box = PixelSize(width: 100, height: 100)

        let (fitDirectory, fit) = try await thumbnails([wide, tall], shape: .fit, box: box)
        #expect(fit == [PixelSize(width: 100, height: 75), PixelSize(width: 50, height: 100)])
        let (fillDirectory, fill) = try await thumbnails([wide, tall], shape: .fill, box: box)
        #expect(fill == [PixelSize(width: 133, height: 100), PixelSize(width: 100, height: 200)])
        let (cropDirectory, crop) = try await thumbnails([wide, tall], shape: .crop, box: box)
        #expect(crop == [box, box])
        let (wideCropDirectory, wideCrop) = try await thumbnails([wide, tall], shape: .crop, box: PixelSize(width: 120, height: 40))
        #expect(wideCrop == [PixelSize(width: 120, height: 40), PixelSize(width: 120, height: 40)])
        for directory in [fitDirectory, fillDirectory, cropDirectory, wideCropDirectory] {
            #expect(CLITestSupport.fileNames(in: directory) == ["tall.jpg", "wide.jpg"])
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("--crop makes exactly W×H of an image smaller than the box")
    func cropEnlargesSmallImages() async throws {
        let inputs = try CLITestSupport.directory("small")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let small = inputs.appendingPathComponent("small.jpg")
        try CLITestSupport.writePhoto(small, width: 64, height: 48)
        let (out, sizes) = try await thumbnails([small], shape: .crop, box: PixelSize(width: 100, height: 100), format: .png)
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(sizes == [PixelSize(width: 100, height: 100)])
        // --fit never enlarges.
        let (fitOut, fit) = try await thumbnails([small], shape: .fit, box: PixelSize(width: 100, height: 100))
        defer { try? FileManager.default.removeItem(at: fitOut) }
        #expect(fit == [PixelSize(width: 64, height: 48)])
    }

    @Test("Inputs that share a name write one file each, and a bad input fails alone")
    func sharedNamesAllWritten() async throws {
        let inputs = try CLITestSupport.directory("shared")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let jpeg = inputs.appendingPathComponent("a.jpg"), png = inputs.appendingPathComponent("a.png")
        let webp = inputs.appendingPathComponent("b.webp"), broken = inputs.appendingPathComponent("c.jpg")
        try CLITestSupport.writePhoto(jpeg, width: 320, height: 200, seed: 3)
        try CLITestSupport.writePhoto(png, width: 200, height: 320, format: .png, seed: 4)
        try CLITestSupport.writePhoto(webp, width: 300, height: 300, format: .webp, seed: 5)
        try Data("not an image".utf8).write(to: broken)
        let (out, sizes) = try await thumbnails([jpeg, png, webp, broken], shape: .fit, box: PixelSize(width: 80, height: 80), jobs: 3)
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(sizes == [PixelSize(width: 80, height: 50), PixelSize(width: 50, height: 80), PixelSize(width: 80, height: 80), nil])
        #expect(CLITestSupport.fileNames(in: out) == ["a.jpg.jpg", "a.png.jpg", "b.jpg"])
    }
}
