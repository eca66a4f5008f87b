#if canImport(CJPEG)
import CIrisShims
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// A progressive JPEG decoded at 1/8 from its DC coefficients alone (CIrisShims/jpeg_dc_only.h):
/// the AC scans of the components scaled to 1×1 are left unread and their coefficients kept as
/// DC only, and the pixels are those of reading every scan.
@Suite("JPEG at 1/8 from DC alone")
struct JPEGDCOnlyTests {
    typealias Support = JPEGTestSupport

    /// 320×240: at 40×30 the decoder scales by 1/8.
    static let photo = SampleImages.photo(width: 320, height: 240, seed: 5)

    /// The rows libjpeg gives at `scale`/8, and what the decompressor left out.
    struct Decoded {
        var rows: [UInt8]
        var skippedScans: Int
        var dcOnlyComponents: Int
    }

    static func decompress(_ data: Data, scale: Int, neededScansOnly: Bool, maxScans: Int = 1_000) throws -> Decoded {
        try data.withUnsafeBytes { bytes throws(ImageError) in
            let decompressor = try JPEGDecompressor(bytes: bytes, maxScans: maxScans, maxMemory: 0)
            _ = try decompressor.readHeader()
            decompressor.readNeededScansOnly(neededScansOnly)
            let (size, bytesPerPixel) = try decompressor.start(scale: scale, colorSpace: IRIS_JPEG_CS_RGBX)
            let stride = size.width * bytesPerPixel
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: stride * size.height, alignment: 16)
            defer { buffer.deallocate() }
            var done = 0
            while done < size.height {
                let count = try decompressor.readRows(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[(done * stride)...]), stride: stride,
                    maxRows: 1)
                guard count > 0 else { break }
                done += count
            }
            return Decoded(
                rows: Array(buffer.prefix(done * stride)), skippedScans: decompressor.skippedScans,
                dcOnlyComponents: decompressor.dcOnlyComponents)
        }
    }

    @Test(
        "at 1/8 the AC scans of 1×1 components go unread and the pixels are those of every scan",
        arguments: [
            (quality: 95, format: PixelFormat.rgbx8, dcOnly: 3),  // 4:4:4: every component
            (quality: 80, format: PixelFormat.rgbx8, dcOnly: 1),  // 4:2:0: luma (chroma is scaled to 2×2)
            (quality: 90, format: PixelFormat.gray8, dcOnly: 1),
        ])
    func dcOnlyMatchesEveryScan(kind: (quality: Int, format: PixelFormat, dcOnly: Int)) throws {
        let bitmap = kind.format == .gray8 ? Self.photo.converted(to: .gray8) : Self.photo
        let data = try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: kind.quality, progressive: true))
        let dcOnly = try Self.decompress(data, scale: 1, neededScansOnly: true)
        let everyScan = try Self.decompress(data, scale: 1, neededScansOnly: false)
        #expect(dcOnly.skippedScans > 0)
        #expect(dcOnly.dcOnlyComponents == kind.dcOnly)
        #expect(everyScan.skippedScans == 0 && everyScan.dcOnlyComponents == 0)
        #expect(dcOnly.rows.count == 40 * 30 * 4)
        expectSameBytes(dcOnly.rows, everyScan.rows)
        // Through the decoder, to a target that takes 1/8, and resampled: the same bitmap.
        let output = PixelSize(width: 36, height: 27)
        expectSameBytes(
            try Support.decode(data, to: output),
            try Support.decode(data, to: output, decoder: JPEGDecoder(maxScans: 1_000, readsNeededScansOnly: false)))
    }

    @Test("at 2/8 and above, and for baseline files, every scan is read")
    func everyScanOtherwise() throws {
        let progressive = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95, progressive: true))
        for scale in [2, 4, 8] {
            let decoded = try Self.decompress(progressive, scale: scale, neededScansOnly: true)
            #expect(decoded.skippedScans == 0 && decoded.dcOnlyComponents == 0, "scale \(scale)")
        }
        let baseline = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95))
        let decoded = try Self.decompress(baseline, scale: 1, neededScansOnly: true)
        #expect(decoded.skippedScans == 0 && decoded.dcOnlyComponents == 0)
    }

    @Test("data that does not read cleanly to its EOI is read whole: truncation is still reported")
    func incompleteDataReadWhole() throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95, progressive: true))
        let output = PixelSize(width: 40, height: 30)
        // Without its EOI marker, the file decodes in full, reading every scan.
        let noEOI = data.prefix(data.count - 2)
        let whole = try Self.decompress(noEOI, scale: 1, neededScansOnly: true)
        #expect(whole.skippedScans == 0)
        expectSameBytes(whole.rows, try Self.decompress(data, scale: 1, neededScansOnly: true).rows)
        // Cut inside the last (AC) scan: truncated, as when every scan is read; the rows made
        // from what there was are there for a preview.
        let cut = data.count - 100
        #expect(throws: ImageError.truncated(format: .jpeg, received: cut, expected: nil)) {
            try Support.decode(data.prefix(cut), to: output)
        }
        var partial = DecodeOptions(target: DecodeTarget(width: 40, height: 30))
        partial.allowsPartialData = true
        let preview = try ImageDecoderRegistry(decoders: [JPEGDecoder()]).decode(data.prefix(cut), options: partial)
        #expect(preview.bitmap.size == output)
    }

    @Test("the scan limit counts the scans left unread")
    func scanLimitAtOneEighth() throws {
        let bitmap = SampleImages.photo(width: 64, height: 48, seed: 8)
        let exhaustive = try JPEGEncoder.encodeExhaustivelyProgressive(bitmap, quality: 90)
        #expect(throws: ImageError.decodingFailed(format: .jpeg, reason: "the progressive JPEG has more than 1000 scans")) {
            try Self.decompress(exhaustive, scale: 1, neededScansOnly: true)
        }
        // With a higher limit, 1 DC scan is read and the 1890 AC scans are not; same pixels.
        let dcOnly = try Self.decompress(exhaustive, scale: 1, neededScansOnly: true, maxScans: 5_000)
        #expect(dcOnly.skippedScans == 3 * 63 * 10)
        expectSameBytes(dcOnly.rows, try Self.decompress(exhaustive, scale: 1, neededScansOnly: false, maxScans: 5_000).rows)
    }
}
#endif
