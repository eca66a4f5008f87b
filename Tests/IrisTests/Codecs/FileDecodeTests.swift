import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Decoding straight from a file: mapped, with read pages given back.
@Suite("Decoding files")
struct FileDecodeTests {
    private func temporaryFile(_ data: Data, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url
    }

    @Test("a file decodes to the same pixels as its bytes do, PNG with EXIF orientation included")
    func sameAsData() throws {
        let photo = SampleImages.photo(width: 1500, height: 1100, seed: 12)
        let png = EXIFBuilder.png(
            try PNGEncoder().encode(photo, options: EncodeOptions()),
            insertingEXIF: EXIFBuilder.tiff(orientation: 6))
        let jpeg = try JPEGEncoder().encode(photo, options: EncodeOptions(quality: 90))
        for (name, data) in [("photo.png", png), ("photo.jpg", jpeg)] {
            let url = try temporaryFile(data, name)
            defer { try? FileManager.default.removeItem(at: url) }
            for target in [nil, DecodeTarget(width: 200, height: 200)] {
                let options = DecodeOptions(target: target)
                let fromFile = try ImageDecoderRegistry.standard.decode(contentsOf: url, options: options)
                let fromData = try ImageDecoderRegistry.standard.decode(data, options: options)
                expectSameBytes(fromFile.bitmap, fromData.bitmap, "\(name) \(String(describing: target))")
                #expect(fromFile.orientation == fromData.orientation)
            }
        }
    }

    @Test("released pages read back as the file's bytes")
    func releasedPagesReadBack() throws {
        var random = SplitMix(seed: 9)
        let bytes = Data((0..<(12 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let url = try temporaryFile(bytes, "random.bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try MappedFile(url)
        expectSameBytes(file.data, bytes)
        // Two passes, as the EXIF walk and then the decoder make.
        for _ in 0..<2 {
            for offset in stride(from: 0, through: bytes.count, by: 1 << 20) { file.releasePages(before: offset) }
            expectSameBytes(file.data, bytes)
        }
    }

    @Test("an empty file, a missing file and a directory give readable errors")
    func badFiles() throws {
        let empty = try temporaryFile(Data(), "empty.png")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ImageError.emptyData) { try ImageDecoderRegistry.standard.decode(contentsOf: empty) }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("iris-no-such-file.png")
        do {
            _ = try ImageDecoderRegistry.standard.decode(contentsOf: missing)
            Issue.record("decoded a missing file")
        } catch {
            guard case .dataLoadingFailed(let reason, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("iris-no-such-file.png") && reason.contains("No such file"))
        }
        #expect(throws: ImageError.self) { try ImageDecoderRegistry.standard.decode(contentsOf: FileManager.default.temporaryDirectory) }
    }
}
