#if canImport(CPNG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// The whole-stream inflate (libdeflate, ``PNGReader/inflateWhole(budget:)``) against libpng's
/// own streaming inflate: the same pixels for every kind of PNG, the same errors for damaged
/// data (which always streams), and the budget that chooses between them.
@Suite("PNG whole-stream inflate")
struct PNGWholeInflateTests {
    let whole = PNGDecoder()
    let streaming = PNGDecoder(wholeInflateBytes: 0)

    /// Whether `data`'s image data is inflated at once within `budget`.
    private func inflatesWhole(_ data: Data, budget: Int) throws -> Bool {
        try PNGReader.withReader(data) { reader throws(ImageError) in
            _ = try reader.readInfo()
            return reader.inflateWhole(budget: budget, maxInput: .max)
        }
    }

    private func decode(_ data: Data, with decoder: PNGDecoder, size: PixelSize? = nil) throws(ImageError) -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: size ?? header.storedSize))
    }

    /// `data` with its image data re-split into IDAT chunks of `sizes` bytes (the rest in one more).
    private func rechunked(_ data: Data, sizes: [Int]) -> Data {
        let chunks = PNGBytes.chunks(data)
        let bytes = [UInt8](data)
        let idats = chunks.filter { $0.type == "IDAT" }
        let stream = idats.flatMap { bytes[$0.dataRange] }
        var pieces: [[UInt8]] = []
        var at = 0
        for size in sizes {
            pieces.append(Array(stream[at..<min(at + size, stream.count)]))
            at = min(at + size, stream.count)
        }
        pieces.append(Array(stream[at...]))
        var out = Array(bytes[0..<idats[0].offset])
        for piece in pieces { out += PNGBytes.chunk("IDAT", piece) }
        out += bytes[(idats.last!.dataRange.upperBound + 4)...]
        return Data(out)
    }

    @Test("every colour type and bit depth decodes exactly, inflated whole, as when streamed", arguments: PNGKind.all)
    func everyKind(kind: PNGKind) throws {
        let image = PNGSampleImage(
            width: 37, height: 23, colorType: kind.colorType, bitDepth: kind.bitDepth,
            withTransparency: kind.transparency, seed: UInt64(kind.bitDepth * 17) + UInt64(kind.colorType.rawValue))
        let data = try image.encoded(interlaced: kind.interlaced)
        #expect(try inflatesWhole(data, budget: .max))
        let bitmap = try decode(data, with: whole)
        var mismatches = 0
        for y in 0..<image.height {
            for x in 0..<image.width where bitmap.rgba(x: x, y: y) != image.expectedPixel(x: x, y: y) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        expectSameBytes(bitmap, try decode(data, with: streaming))
        // Shrunk while decoding, too.
        let small = PixelSize(width: 11, height: 7)
        expectSameBytes(try decode(data, with: whole, size: small), try decode(data, with: streaming, size: small))
    }

    @Test("image data over many IDAT chunks (empty and one-byte ones among them) is joined and inflated whole", arguments: [false, true])
    func manyChunks(interlaced: Bool) throws {
        let image = PNGSampleImage(width: 300, height: 200, colorType: .rgba, bitDepth: 8, withTransparency: false, seed: 21)
        let written = try image.encoded(interlaced: interlaced)
        #expect(PNGBytes.chunks(written).filter { $0.type == "IDAT" }.count > 1)
        for data in [written, rechunked(written, sizes: [0, 1, 0, 7]), rechunked(written, sizes: [1 << 20])] {
            #expect(try inflatesWhole(data, budget: .max))
            expectSameBytes(try decode(data, with: whole), try decode(data, with: streaming))
            let thumbnail = PixelSize(width: 75, height: 50)
            expectSameBytes(try decode(data, with: whole, size: thumbnail), try decode(data, with: streaming, size: thumbnail))
        }
    }

    @Test("the budget counts the inflated scanlines, and the joined compressed data when it is split")
    func budget() throws {
        // 37×23 RGBA, 8-bit: 23 rows of a filter byte and 148 bytes; one IDAT chunk.
        let image = PNGSampleImage(width: 37, height: 23, colorType: .rgba, bitDepth: 8, withTransparency: false, seed: 3)
        let data = try image.encoded(interlaced: false)
        let scanlines = 23 * (1 + 37 * 4)
        #expect(try inflatesWhole(data, budget: scanlines))
        #expect(try !inflatesWhole(data, budget: scanlines - 1))
        let split = rechunked(data, sizes: [100])
        let compressed = PNGBytes.chunks(split).filter { $0.type == "IDAT" }.reduce(0) { $0 + $1.length }
        #expect(try inflatesWhole(split, budget: scanlines + compressed))
        #expect(try !inflatesWhole(split, budget: scanlines + compressed - 1))
        // The decoder's budget is also bounded by the limits' decoded bytes.
        #expect(PNGDecoder().wholeInflateBytes == PNGDecoder.defaultWholeInflateBytes)
    }

    @Test("damaged image data streams, and fails (or decodes) exactly as it does streamed")
    func damagedData() throws {
        let image = PNGSampleImage(width: 64, height: 48, colorType: .rgb, bitDepth: 8, withTransparency: false, seed: 13)
        let data = try image.encoded(interlaced: false)
        let idat = try #require(PNGBytes.chunks(data).first { $0.type == "IDAT" })
        var cases: [(String, Data)] = []
        var badCRC = data
        badCRC[idat.dataRange.upperBound] ^= 0x01
        cases.append(("a wrong IDAT CRC", badCRC))
        var random = SplitMix(seed: 5)
        for round in 0..<12 {
            var damaged = data
            damaged[idat.dataRange.lowerBound + (round < 2 ? round : random.below(idat.length))] ^= UInt8(1 << random.below(8))
            cases.append(("zlib data flipped behind a valid CRC, round \(round)", PNGBytes.fixingCRC(damaged, chunk: idat)))
        }
        cases.append(("cut inside the IDAT", data.prefix(idat.dataRange.lowerBound + idat.length / 2)))
        cases.append(("cut before the IDAT's CRC", data.prefix(idat.dataRange.upperBound)))
        // Image data short of the image, and longer than it, each behind valid chunks: the
        // scanlines unfiltered (filter byte 0) in stored blocks.
        let scanlines: [UInt8] = image.samples.flatMap { row -> [UInt8] in [0] + row.map { UInt8($0) } }
        for (label, count) in [
            ("image data short of the image", scanlines.count / 2), ("image data longer than the image", scanlines.count + 500),
        ] {
            let body = (0..<count).map { scanlines[$0 % scanlines.count] }
            let file = Array(data[0..<idat.offset]) + PNGBytes.chunk("IDAT", zlibStored(body)) + PNGBytes.chunk("IEND", [])
            cases.append((label, Data(file)))
        }
        // Bytes after the end of the zlib stream, in the same chunk.
        let stream = [UInt8](data[idat.dataRange])
        var trailing = Array(data[0..<idat.offset])
        trailing += PNGBytes.chunk("IDAT", stream + [UInt8](repeating: 0, count: 20_000))
        trailing += PNGBytes.chunk("IEND", [])
        cases.append(("bytes after the zlib stream", Data(trailing)))
        // The scanlines in stored blocks decode like the file itself.
        let stored = Array(data[0..<idat.offset]) + PNGBytes.chunk("IDAT", zlibStored(scanlines)) + PNGBytes.chunk("IEND", [])
        #expect(try inflatesWhole(Data(stored), budget: .max))
        expectSameBytes(try decode(Data(stored), with: whole), try decode(data, with: streaming))

        for (label, damaged) in cases {
            let fromWhole = Result { () throws(ImageError) -> Bitmap in try decode(damaged, with: whole) }
            let fromStreaming = Result { () throws(ImageError) -> Bitmap in try decode(damaged, with: streaming) }
            switch (fromWhole, fromStreaming) {
            case let (.success(a), .success(b)):
                expectSameBytes(a, b, label)
            case let (.failure(a), .failure(b)):
                #expect(a == b, "\(label)")
            default:
                Issue.record("\(label): \(fromWhole) inflated whole, \(fromStreaming) streamed")
            }
        }
    }
}

/// `bytes` as a zlib stream of stored blocks, with its Adler-32.
private func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var at = 0
    repeat {
        let count = min(65535, bytes.count - at)
        let last: UInt8 = at + count == bytes.count ? 1 : 0
        out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
        out += bytes[at..<(at + count)]
        at += count
    } while at < bytes.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return out + PNGBytes.be32(b << 16 | a)
}
#endif
