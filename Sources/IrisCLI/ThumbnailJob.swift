import Foundation
import Iris

/// One thumbnail through the pipeline: the file decoded at the box (and cropped for `--crop`),
/// encoded, written whole under its planned name.
struct ThumbnailJob: Sendable {
    let pipeline: ImagePipeline
    let shape: ThumbnailShape
    /// The box, in pixels.
    let box: PixelSize
    let output: ImageOutput
    let plan: OutputPlan

    /// Thumbnails input `index` of the plan, read from `path`; returns the file written.
    /// Cancelled before the write, it writes nothing.
    func run(_ index: Int, path: String) async throws -> URL {
        let image = try await pipeline.image(for: shape.request(for: URL(fileURLWithPath: path), box: box))
        let (encoded, fileExtension) = try await output.encode(image)
        try Task.checkCancellation()
        let written = plan.url(for: index, fileExtension: fileExtension)
        try OutputFile.write(encoded, to: written)
        return written
    }
}
