import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Progressive JPEG previews while the body comes in pieces from a loopback server, each piece
/// released by the test.
@Suite("Progressive previews")
struct ProgressivePreviewTests {
    static let photo = SampleImages.photo(width: 640, height: 480, seed: 31)

    /// Loads `data` in 4 KiB pieces, collecting the task's previews. When the data is a
    /// progressive JPEG, the body stops after the piece that completes its first scan until a
    /// preview has come, then the rest goes: the first preview is always of the first scan,
    /// however fast or slow the machine.
    private func load(_ data: Data, progressive: Bool) async throws -> (previews: [LoadedImage], final: LoadedImage) {
        try await withTestServer { server in
            let route = TestHTTPRoute.inPieces(body: data, pieceSize: 4096, contentType: "image/jpeg")
            server.serve("/photo.jpg", route)
            var scans = JPEGScanCounter()
            let firstScanPiece = (0..<route.pieceCount).first { piece in
                scans.append(data[(piece * 4096)..<min((piece + 1) * 4096, data.count)])
            }
            let pipeline = ImagePipeline(
                configuration: .init(
                    dataLoader: URLSessionDataLoader(timeout: httpHangTimeout),
                    isProgressiveDecodingEnabled: progressive))
            let task = pipeline.task(
                for: ImageRequest(
                    url: server.url("/photo.jpg"), targetSize: CGSize(width: 160, height: 160),
                    processors: [.grayscale]))
            if progressive, let firstScanPiece {
                server.releasePieces("/photo.jpg", through: firstScanPiece)
            } else {
                server.releasePieces("/photo.jpg", through: route.pieceCount - 1)
            }
            var previews: [LoadedImage] = []
            for await preview in task.previews {
                previews.append(preview)
                if previews.count == 1 { server.releasePieces("/photo.jpg", through: route.pieceCount - 1) }
            }
            return (previews, try await task.image)
        }
    }

    @Test("a progressive JPEG gives previews at the target size, processed, before the final image")
    func progressiveGivesPreviews() async throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90, progressive: true))
        let (previews, final) = try await load(data, progressive: true)
        #expect(!final.isPreview)
        #expect(final.bitmap.size == PixelSize(width: 160, height: 120))
        try #require(!previews.isEmpty, "\(data.count) bytes in 4 KiB pieces gave no preview")
        for preview in previews {
            #expect(preview.isPreview)
            #expect(preview.bitmap.size == final.bitmap.size)
            #expect(preview.bitmap.format == .gray8)  // the processor ran on it
        }
        // An early scan is a coarser picture than the final one.
        let first = JPEGTestSupport.error(previews[0].bitmap, final.bitmap)
        #expect(first.mean > 0.5, "first preview is already the final image (mean error \(first.mean))")
    }

    @Test("a baseline JPEG, or progressive decoding switched off, gives no previews")
    func noPreviews() async throws {
        let baseline = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90))
        #expect(try await load(baseline, progressive: true).previews.isEmpty)
        let progressive = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90, progressive: true))
        #expect(try await load(progressive, progressive: false).previews.isEmpty)
    }

    @Test("the scan counter sees each completed scan of a progressive JPEG and none of a baseline one")
    func scanCounter() throws {
        let progressive = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90, progressive: true))
        var counter = JPEGScanCounter()
        var completions = 0
        for start in stride(from: 0, to: progressive.count, by: 1000) {
            if counter.append(progressive[start..<min(start + 1000, progressive.count)]) { completions += 1 }
        }
        #expect(counter.isProgressive)
        #expect(counter.scansStarted >= 6)
        #expect(completions >= 3)

        var baseline = JPEGScanCounter()
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90))
        let baselineCompleted = baseline.append(data)
        #expect(!baselineCompleted)
        #expect(baseline.scansStarted == 1)
        var png = JPEGScanCounter()
        let pngCompleted = png.append(try PNGEncoder().encode(Self.photo, options: EncodeOptions()))
        #expect(!pngCompleted)
    }

    @Test("a truncated progressive JPEG decodes as a preview when partial data is allowed, and fails otherwise")
    func partialDecode() throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90, progressive: true))
        let half = data.prefix(data.count / 2)
        let options = DecodeOptions(target: DecodeTarget(width: 160, height: 160), allowsPartialData: true)
        let preview = try ImageDecoderRegistry.standard.decode(half, options: options)
        #expect(preview.isPreview)
        #expect(preview.bitmap.size == PixelSize(width: 160, height: 120))
        #expect(throws: ImageError.truncated(format: .jpeg, received: half.count, expected: nil)) {
            try ImageDecoderRegistry.standard.decode(half, options: DecodeOptions(target: DecodeTarget(width: 160, height: 160)))
        }
    }
}
