#if os(Linux)
import Foundation
import IrisSamples
import Testing
@testable import Iris

/// `.file` sources go through the mapped-file path in the pipeline: a large PNG is never
/// resident whole, because the decoder gives back the pages it has read.
@Suite("Pipeline file sources")
struct PipelineFileSourceTests {
    /// The resident size in bytes of this process's mapping of `path`, from /proc/self/smaps.
    static func residentBytes(ofMapping path: String) -> Int {
        // /proc files report a size of 0: read to the end rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return 0 }
        defer { try? handle.close() }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var inMapping = false
        var total = 0
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                inMapping = line.hasSuffix(path)
            } else if inMapping, line.hasPrefix("Rss:") {
                total += (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
            }
        }
        return total
    }

    @Test("a 17 MB PNG file thumbnailed through the pipeline keeps at most two release steps of it resident")
    func largeFileStaysMostlyOnDisk() async throws {
        let side = 2400
        var random = SplitMix(seed: 77)
        var noise = Bitmap(width: side, height: side, format: .rgbx8)
        noise.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 8) {
                let value = random.next()
                for offset in 0..<min(8, bytes.count - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: value >> (offset * 8)) }
            }
        }
        let png = try PNGEncoder().encode(noise.converted(to: .rgbx8), options: EncodeOptions())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-large-\(UUID().uuidString).png")
        try png.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let peak = LockedState(0)
        let sampling = LockedState(true)
        let sampler = Thread {
            while sampling.withLock({ $0 }) {
                let resident = Self.residentBytes(ofMapping: url.path)
                peak.withLock { $0 = max($0, resident) }
                usleep(1000)
            }
        }
        sampler.start()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil))
        let image = try await pipeline.image(for: ImageRequest(url: url, targetSize: CGSize(width: 100, height: 100)))
        sampling.withLock { $0 = false }

        #expect(image.bitmap.size == PixelSize(width: 100, height: 100))
        #expect(image.format == .png)
        let resident = peak.withLock { $0 }
        #expect(resident > 0, "the sampler never saw the file mapped")
        // Bounded by the release step (plus the kernel's read-ahead), not by the file's size.
        #expect(
            resident <= 2 * MappedFile.releaseStep && resident < png.count / 2,
            "peak resident \(resident) bytes of a \(png.count)-byte file")
    }
}
#endif
