#if canImport(CPNG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// One PNG kind: colour type, bit depth, tRNS, interlacing.
struct PNGKind: Sendable, CustomTestStringConvertible {
    var colorType: PNGColorType
    var bitDepth: Int
    var transparency: Bool
    var interlaced: Bool

    var testDescription: String {
        "\(colorType) \(bitDepth)-bit\(transparency ? " +tRNS" : "")\(interlaced ? " Adam7" : "")"
    }

    /// Every legal colour type × bit depth, with and without tRNS where the type allows it,
    /// interlaced and not.
    static let all: [PNGKind] = PNGColorType.allCases.flatMap { type in
        type.legalBitDepths.flatMap { depth in
            let transparencies = type == .grayAlpha || type == .rgba ? [false] : [false, true]
            return transparencies.flatMap { trns in
                [false, true].map { PNGKind(colorType: type, bitDepth: depth, transparency: trns, interlaced: $0) }
            }
        }
    }
}

@Suite("PNG codec")
struct PNGCodecTests {
    let decoder = PNGDecoder()

    private func decodeFull(_ data: Data) throws -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: header.storedSize))
    }

    // MARK: - Every kind of PNG

    @Test("decodes every colour type and bit depth exactly", arguments: PNGKind.all)
    func decodesEveryKind(kind: PNGKind) throws {
        let image = PNGSampleImage(
            width: 37, height: 23, colorType: kind.colorType, bitDepth: kind.bitDepth,
            withTransparency: kind.transparency, seed: UInt64(kind.bitDepth * 31) + UInt64(kind.colorType.rawValue))
        let data = try image.encoded(interlaced: kind.interlaced)
        let header = try decoder.readHeader(data)
        #expect(header.format == .png)
        #expect(header.storedSize == PixelSize(width: 37, height: 23))
        #expect(header.hasAlpha == (image.expectedFormat == .rgba8))
        #expect(header.frameCount == 1)

        let bitmap = try decodeFull(data)
        #expect(bitmap.format == image.expectedFormat)
        #expect(bitmap.size == PixelSize(width: 37, height: 23))
        var mismatches = 0
        for y in 0..<image.height {
            for x in 0..<image.width where bitmap.rgba(x: x, y: y) != image.expectedPixel(x: x, y: y) {
                if mismatches < 3 {
                    Issue.record("(\(x), \(y)): decoded \(bitmap.rgba(x: x, y: y)), expected \(image.expectedPixel(x: x, y: y))")
                }
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        if kind.transparency && kind.colorType != .palette {
            // The planted transparent colour really decoded as transparent.
            #expect(bitmap.rgba(x: 0, y: 0).a == 0)
        }
    }

    @Test("interlaced images smaller than an Adam7 block decode exactly", arguments: [(1, 1), (2, 3), (5, 1), (1, 9), (9, 9)])
    func tinyInterlaced(width: Int, height: Int) throws {
        let image = PNGSampleImage(width: width, height: height, colorType: .rgba, bitDepth: 8, withTransparency: false, seed: 7)
        let bitmap = try decodeFull(try image.encoded(interlaced: true))
        for y in 0..<height {
            for x in 0..<width { #expect(bitmap.rgba(x: x, y: y) == image.expectedPixel(x: x, y: y)) }
        }
    }

    @Test("16-bit samples round to 8 bits: every value v16 → round(v16 × 255 / 65535)")
    func sixteenBitRounding() throws {
        let rows = (0..<256).map { y in PNGSampleImage.pack((0..<256).map { y * 256 + $0 }, bitDepth: 16) }
        let data = try PNGWriter.write(width: 256, height: 256, colorType: .gray, bitDepth: 16, rows: rows)
        let bitmap = try decodeFull(data)
        #expect(bitmap.format == .gray8)
        var wrong = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let v = y * 256 + x
                let expected = UInt8((Double(v) * 255 / 65535).rounded())
                if bitmap.pixels[y * bitmap.bytesPerRow + x] != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("alpha is premultiplied: round(c × a / 255)")
    func premultiplies() throws {
        let row: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255, 255, 128, 1, 1]
        let data = try PNGWriter.write(width: 4, height: 1, colorType: .rgba, bitDepth: 8, rows: [row])
        let bitmap = try decodeFull(data)
        #expect(bitmap.format == .rgba8)
        #expect(bitmap.rgba(x: 0, y: 0) == RGBA(r: 100, g: 50, b: 25, a: 128))
        #expect(bitmap.rgba(x: 1, y: 0) == RGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(bitmap.rgba(x: 2, y: 0) == RGBA(r: 10, g: 20, b: 30, a: 255))
        #expect(bitmap.rgba(x: 3, y: 0) == RGBA(r: 1, g: 1, b: 0, a: 1))
    }

    @Test("grey with alpha expands to premultiplied RGBA")
    func grayAlphaExpands() throws {
        let data = try PNGWriter.write(width: 2, height: 1, colorType: .grayAlpha, bitDepth: 8, rows: [[180, 255, 180, 51]])
        let bitmap = try decodeFull(data)
        #expect(bitmap.format == .rgba8)
        #expect(bitmap.rgba(x: 0, y: 0) == RGBA(r: 180, g: 180, b: 180, a: 255))
        #expect(bitmap.rgba(x: 1, y: 0) == RGBA(r: 36, g: 36, b: 36, a: 51))
    }

    // MARK: - Encoder

    @Test("SampleImages.photo round-trips exactly through PNGEncoder", arguments: [PixelFormat.rgbx8, .gray8, .rgba8])
    func roundTrip(format: PixelFormat) throws {
        let photo = SampleImages.photo(width: 161, height: 97, seed: 3, format: format, alpha: format == .rgba8)
        let data = try PNGEncoder().encode(photo, options: EncodeOptions())
        let decoded = try decodeFull(data)
        #expect(decoded.format == photo.format)
        expectSameBytes(decoded, photo)
        if format == .rgba8 { #expect(!decoded.isOpaque) }
    }

    @Test("the encoder writes the PNG colour type matching the bitmap format")
    func encoderColourTypes() throws {
        let expectations: [(PixelFormat, UInt8)] = [(.gray8, 0), (.rgbx8, 2), (.rgba8, 6)]
        for (format, colorType) in expectations {
            let data = try PNGEncoder().encode(SampleImages.photo(width: 8, height: 8, format: format), options: EncodeOptions())
            #expect(data[25] == colorType)
            #expect(data[24] == 8)
        }
    }

    @Test("the writer rejects bad input with encodingFailed")
    func writerRejectsBadInput() {
        let short = thrownImageError { _ = try PNGWriter.write(width: 10, height: 1, colorType: .rgb, bitDepth: 8, rows: [[1, 2, 3]]) }
        #expect(short.map { if case .encodingFailed(.png, _) = $0 { true } else { false } } == true)
        let depth = thrownImageError { _ = try PNGWriter.write(width: 1, height: 1, colorType: .palette, bitDepth: 16, rows: [[0, 0]]) }
        #expect(depth.map { if case .encodingFailed(.png, _) = $0 { true } else { false } } == true)
        let empty = thrownImageError { _ = try PNGEncoder().encode(Bitmap(width: 0, height: 4, format: .rgba8), options: EncodeOptions()) }
        #expect(empty.map { if case .encodingFailed(.png, _) = $0 { true } else { false } } == true)
    }

    // MARK: - Target size

    @Test("decodes to exactly context.outputSize", arguments: [false, true])
    func decodesToTargetSize(interlaced: Bool) throws {
        let image = PNGSampleImage(width: 300, height: 200, colorType: .rgb, bitDepth: 8, withTransparency: false, seed: 9)
        let data = try image.encoded(interlaced: interlaced)
        let header = try decoder.readHeader(data)
        for size in [PixelSize(width: 75, height: 50), PixelSize(width: 31, height: 17), PixelSize(width: 1, height: 1)] {
            let bitmap = try decoder.decode(data, context: DecodeContext(header: header, outputSize: size))
            #expect(bitmap.size == size)
            #expect(bitmap.format == .rgbx8)
        }
    }

    @Test("a 4000×4000 PNG decodes to 100×100 through the row sink")
    func largeToThumbnail() throws {
        let side = 4000
        let data = try PNGWriter.write(width: side, height: side, colorType: .gray, bitDepth: 8, compressionLevel: 1) { _ in
            (0..<side).map { UInt8($0 * 255 / (side - 1)) }
        }
        let header = try decoder.readHeader(data)
        #expect(header.storedSize == PixelSize(width: side, height: side))
        let output = PixelSize(width: 100, height: 100)
        let bitmap = try decoder.decode(data, context: DecodeContext(header: header, outputSize: output))
        #expect(bitmap.size == output)
        #expect(bitmap.format == .gray8)
        // A horizontal ramp stays a ramp: each output column is near the source value at its centre.
        for x in stride(from: 5, to: 95, by: 10) {
            let centre = (Double(x) + 0.5) * Double(side) / 100 - 0.5
            let expected = centre * 255 / Double(side - 1)
            for y in [0, 50, 99] {
                let value = Double(bitmap.pixels[y * bitmap.bytesPerRow + x])
                #expect(abs(value - expected) <= 4, "column \(x) row \(y): \(value) vs \(expected)")
            }
        }
    }

    // MARK: - Headers

    @Test("an acTL without any frame control (fcTL) is a still: the header counts frames, not acTL's claim")
    func apngFrameCount() throws {
        let data = try PNGWriter.write(
            width: 4, height: 4, colorType: .rgb, bitDepth: 8, rows: Array(repeating: [UInt8](repeating: 9, count: 12), count: 4))
        var bytes = [UInt8](data)
        let acTL = PNGBytes.chunk("acTL", PNGBytes.be32(3) + PNGBytes.be32(0))
        bytes.insert(contentsOf: acTL, at: 33)  // right after IHDR
        let header = try decoder.readHeader(Data(bytes))
        #expect(header.frameCount == 1 && !header.isAnimated)
        #expect(try decodeFull(Data(bytes)).size == PixelSize(width: 4, height: 4))
    }

    @Test("a header claiming 100000×100000 is read; the limits then reject it")
    func hugeHeader() throws {
        let data = Data(
            PNGSampleImage.signature + PNGBytes.ihdr(width: 100_000, height: 100_000)
                + PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBytes.chunk("IEND", []))
        let header = try decoder.readHeader(data)
        #expect(header.storedSize == PixelSize(width: 100_000, height: 100_000))
        #expect(!header.hasAlpha)

        let registry = ImageDecoderRegistry(decoders: [PNGDecoder()])
        let viaRegistry = thrownImageError { _ = try registry.decode(data) }
        #expect(viaRegistry == .overLimit(.pixels(width: 100_000, height: 100_000, limit: DecodingLimits.default.maxPixels)))
        // Called directly, the decoder checks the context's limits itself before allocating.
        let direct = thrownImageError {
            _ = try decoder.decode(data, context: DecodeContext(header: header, outputSize: PixelSize(width: 100, height: 100)))
        }
        #expect(direct == .overLimit(.pixels(width: 100_000, height: 100_000, limit: DecodingLimits.default.maxPixels)))
    }

    @Test("libpng's own size limits do not reject a legal image wider than 1,000,000 pixels")
    func veryWideImage() throws {
        let width = 1_200_000
        let row = [UInt8](repeating: 0b1010_1010, count: width / 8)
        let data = try PNGWriter.write(width: width, height: 2, colorType: .gray, bitDepth: 1, rows: [row, row])
        let bitmap = try decodeFull(data)
        #expect(bitmap.size == PixelSize(width: width, height: 2))
        #expect(bitmap.pixels[0] == 255 && bitmap.pixels[1] == 0 && bitmap.pixels[width + 2] == 255)
    }

    @Test("an IHDR with a zero size is invalidDimensions")
    func zeroSize() {
        for (width, height) in [(0, 10), (10, 0), (0, 0)] {
            let data = Data(
                PNGSampleImage.signature + PNGBytes.ihdr(width: UInt32(width), height: UInt32(height))
                    + PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBytes.chunk("IEND", []))
            let expected = ImageError.invalidDimensions(format: .png, width: width, height: height)
            #expect(thrownImageError { _ = try decoder.readHeader(data) } == expected)
            let context = DecodeContext(
                header: ImageHeader(format: .png, width: 1, height: 1, hasAlpha: false), outputSize: PixelSize(width: 1, height: 1))
            #expect(thrownImageError { _ = try decoder.decode(data, context: context) } == expected)
        }
    }

    // MARK: - Damaged data

    @Test("truncated data is .truncated with the bytes received", arguments: [false, true])
    func truncated(interlaced: Bool) throws {
        let image = PNGSampleImage(width: 64, height: 48, colorType: .rgba, bitDepth: 8, withTransparency: false, seed: 5)
        let data = try image.encoded(interlaced: interlaced)
        let firstIDAT = try #require(PNGBytes.chunks(data).first { $0.type == "IDAT" })
        let idat = try #require(PNGBytes.chunks(data).last { $0.type == "IDAT" })
        let cuts = [
            3, 8, 20, 33, 45, idat.dataRange.lowerBound + 10, (idat.dataRange.lowerBound + data.count) / 2,
            idat.dataRange.upperBound - 1, idat.dataRange.upperBound + 2,
        ]
        let context = DecodeContext(
            header: ImageHeader(format: .png, width: 64, height: 48, hasAlpha: true), outputSize: PixelSize(width: 64, height: 48))
        for cut in cuts {
            let prefix = data.prefix(cut)
            let error = thrownImageError { _ = try decoder.decode(prefix, context: context) }
            #expect(error == .truncated(format: .png, received: cut, expected: nil), "cut at \(cut)")
            // The header is read once the first IDAT's length and type have arrived.
            if cut < firstIDAT.offset + 8 {
                #expect(thrownImageError { _ = try decoder.readHeader(prefix) } == .truncated(format: .png, received: cut, expected: nil))
            }
        }
        #expect(thrownImageError { _ = try decoder.readHeader(Data()) } == .emptyData)
    }

    @Test("every bit flip in IHDR fails cleanly")
    func ihdrBitFlips() throws {
        let data = try PNGSampleImage(width: 16, height: 16, colorType: .rgb, bitDepth: 8, withTransparency: false, seed: 2).encoded(
            interlaced: false)
        let context = DecodeContext(
            header: ImageHeader(format: .png, width: 16, height: 16, hasAlpha: false), outputSize: PixelSize(width: 16, height: 16))
        for byte in 16..<29 {
            for bit in 0..<8 {
                var damaged = data
                damaged[byte] ^= UInt8(1 << bit)
                let error = thrownImageError { _ = try decoder.decode(damaged, context: context) }
                #expect(isCorruption(error), "byte \(byte) bit \(bit): \(String(describing: error))")
            }
        }
    }

    @Test("bit flips in IDAT fail with decodingFailed")
    func idatBitFlips() throws {
        let data = try PNGSampleImage(width: 40, height: 30, colorType: .rgba, bitDepth: 8, withTransparency: false, seed: 4).encoded(
            interlaced: false)
        let idat = try #require(PNGBytes.chunks(data).first { $0.type == "IDAT" })
        let context = DecodeContext(
            header: ImageHeader(format: .png, width: 40, height: 30, hasAlpha: true), outputSize: PixelSize(width: 40, height: 30))
        var random = SplitMix(seed: 11)
        for _ in 0..<40 {
            var damaged = data
            damaged[idat.dataRange.lowerBound + random.below(idat.length)] ^= UInt8(1 << random.below(8))
            let error = thrownImageError { _ = try decoder.decode(damaged, context: context) }
            // zlib's Adler-32 check or the chunk CRC, whichever libpng meets first.
            guard case .decodingFailed(.png, let reason) = error else {
                Issue.record("expected decodingFailed, got \(String(describing: error))")
                continue
            }
            #expect(!reason.isEmpty)
        }
    }

    @Test("a corrupt zlib stream behind a valid CRC never crashes")
    func corruptZlib() throws {
        let data = try PNGSampleImage(width: 40, height: 30, colorType: .rgb, bitDepth: 8, withTransparency: false, seed: 8).encoded(
            interlaced: false)
        let idat = try #require(PNGBytes.chunks(data).first { $0.type == "IDAT" })
        let context = DecodeContext(
            header: ImageHeader(format: .png, width: 40, height: 30, hasAlpha: false), outputSize: PixelSize(width: 40, height: 30))
        var random = SplitMix(seed: 12)
        var failures = 0
        for round in 0..<60 {
            var damaged = data
            let flips = round < 2 ? 1 : 1 + random.below(4)
            for _ in 0..<flips {
                let position = round < 2 ? idat.dataRange.lowerBound + round : idat.dataRange.lowerBound + random.below(idat.length)
                damaged[position] ^= UInt8(1 << random.below(8))
            }
            damaged = PNGBytes.fixingCRC(damaged, chunk: idat)
            do {
                let bitmap = try decoder.decode(damaged, context: context)
                #expect(bitmap.size == PixelSize(width: 40, height: 30))
            } catch {
                #expect(isCorruption(error), "\(error)")
                failures += 1
            }
        }
        // A damaged zlib header is always caught.
        #expect(failures >= 2)
    }

    @Test("data that is not a PNG fails with decodingFailed")
    func notAPNG() {
        let error = thrownImageError { _ = try decoder.readHeader(Data("this is not a PNG file at all".utf8)) }
        guard case .decodingFailed(.png, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test("a cancelled task stops decoding with .cancelled")
    func cancellation() async throws {
        let image = PNGSampleImage(width: 64, height: 64, colorType: .rgb, bitDepth: 8, withTransparency: false, seed: 1)
        let data = try image.encoded(interlaced: false)
        let result = await Task { () -> ImageError? in
            withUnsafeCurrentTask { $0?.cancel() }
            let header = try? PNGDecoder().readHeader(data)
            guard let header else { return nil }
            do throws(ImageError) {
                _ = try PNGDecoder().decode(data, context: DecodeContext(header: header, outputSize: header.storedSize))
                return nil
            } catch {
                return error
            }
        }.value
        #expect(result == .cancelled)
    }

    private func isCorruption(_ error: ImageError?) -> Bool {
        switch error {
        case .decodingFailed(.png, _), .invalidDimensions(.png, _, _): true
        default: false
        }
    }
}

#endif
