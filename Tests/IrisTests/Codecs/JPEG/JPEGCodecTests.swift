#if canImport(CJPEG)
import CIrisShims
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Round trips, shrink-on-load, truncation, corruption and limits of the libjpeg-turbo codec.
///
/// Measured on a 160×120 `SampleImages.photo` at quality 95 (4:4:4): baseline and progressive
/// mean abs error 1.83, max 19; grey 1.52 / 8; CMYK 1.45 / 8; YCCK 1.74 / 15. Bounds below
/// leave room: mean ≤ 3, max ≤ 40 (colour), ≤ 20 (grey), ≤ 30 (CMYK, YCCK). Odd sizes
/// (1×1 … 17×9) measured at most mean 3.11, max 21 (15×16 colour); bound mean ≤ 4, max ≤ 40.
@Suite("JPEG codec")
struct JPEGCodecTests {
    typealias Support = JPEGTestSupport

    static let photo = SampleImages.photo(width: 160, height: 120, seed: 3)

    // MARK: Round trips

    @Test("baseline and progressive colour round trip at q95", arguments: [false, true])
    func colourRoundTrip(progressive: Bool) throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95, progressive: progressive))
        let sof = Support.segment(progressive ? 0xC2 : 0xC0, in: data)
        #expect(sof != nil, "expected a \(progressive ? "progressive" : "baseline") SOF marker")
        let decoded = try Support.decodeFull(data)
        #expect(decoded.format == .rgbx8)
        #expect(decoded.size == Self.photo.size)
        let error = Support.error(Self.photo, decoded)
        #expect(error.mean <= 3, "mean \(error.mean)")
        #expect(error.max <= 40, "max \(error.max)")
    }

    @Test("greyscale round trip gives gray8")
    func greyRoundTrip() throws {
        let grey = SampleImages.photo(width: 160, height: 120, seed: 3, format: .gray8)
        for progressive in [false, true] {
            let data = try JPEGEncoder().encode(grey, options: EncodeOptions(quality: 95, progressive: progressive))
            let decoded = try Support.decodeFull(data)
            #expect(decoded.format == .gray8)
            let error = Support.error(grey, decoded)
            #expect(error.mean <= 3, "mean \(error.mean)")
            #expect(error.max <= 20, "max \(error.max)")
        }
    }

    @Test(
        "CMYK (Adobe inverted, plain) and YCCK decode to the RGB they were made from",
        arguments: [(ycck: false, adobe: true), (ycck: false, adobe: false), (ycck: true, adobe: true)])
    func fourColourRoundTrip(kind: (ycck: Bool, adobe: Bool)) throws {
        let data = try JPEGEncoder.encodeFourColour(Self.photo, quality: 95, ycck: kind.ycck, adobeMarker: kind.adobe)
        let header = try data.withUnsafeBytes { bytes in
            try JPEGDecompressor(bytes: bytes, maxScans: 10, maxMemory: 0).readHeader()
        }
        #expect(header.components == 4)
        #expect(header.colorSpace == (kind.ycck ? IRIS_JPEG_CS_YCCK : IRIS_JPEG_CS_CMYK))
        #expect(header.sawAdobeMarker == kind.adobe)
        let decoded = try Support.decodeFull(data)
        #expect(decoded.format == .rgbx8)
        let error = Support.error(Self.photo, decoded)
        #expect(error.mean <= 3, "mean \(error.mean)")
        #expect(error.max <= 30, "max \(error.max)")
    }

    @Test("rgba8 input loses its alpha: composited over black")
    func rgbaInput() throws {
        let rgba = SampleImages.photo(width: 96, height: 64, seed: 5, format: .rgba8, alpha: true)
        let data = try JPEGEncoder().encode(rgba, options: EncodeOptions(quality: 95))
        let decoded = try Support.decodeFull(data)
        let error = Support.error(rgba.converted(to: .rgbx8), decoded)
        #expect(error.mean <= 3, "mean \(error.mean)")
        #expect(error.max <= 40, "max \(error.max)")
    }

    @Test("lower quality makes smaller files with larger error")
    func qualityMatters() throws {
        let low = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 30))
        let high = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95))
        #expect(low.count < high.count)
        #expect(
            Support.error(Self.photo, try Support.decodeFull(low)).mean
                > Support.error(Self.photo, try Support.decodeFull(high)).mean)
    }

    @Test("1×1 and odd sizes round trip", arguments: [(1, 1), (3, 5), (17, 9), (33, 1), (1, 33), (15, 16)])
    func oddSizes(size: (Int, Int)) throws {
        let colour = SampleImages.photo(width: size.0, height: size.1, seed: 9)
        let grey = SampleImages.photo(width: size.0, height: size.1, seed: 9, format: .gray8)
        for (bitmap, progressive) in [(colour, false), (colour, true), (grey, false)] {
            let data = try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 95, progressive: progressive))
            let decoded = try Support.decodeFull(data)
            #expect(decoded.size == bitmap.size)
            #expect(decoded.format == (bitmap.format == .gray8 ? .gray8 : .rgbx8))
            let error = Support.error(bitmap, decoded)
            #expect(error.mean <= 4, "\(size) progressive \(progressive): mean \(error.mean)")
            #expect(error.max <= 40, "\(size) progressive \(progressive): max \(error.max)")
        }
    }

    @Test("encoding an empty bitmap fails with encodingFailed")
    func emptyBitmap() {
        #expect(throws: ImageError.self) {
            try JPEGEncoder().encode(Bitmap(width: 0, height: 0, format: .rgbx8), options: EncodeOptions())
        }
    }

    // MARK: Header

    @Test("header: size, no alpha, one frame, no pixels needed")
    func header() throws {
        let data = try JPEGEncoder().encode(SampleImages.photo(width: 37, height: 91), options: EncodeOptions(progressive: true))
        let header = try JPEGDecoder().readHeader(data)
        #expect(header.format == .jpeg)
        #expect(header.width == 37 && header.height == 91)
        #expect(!header.hasAlpha)
        #expect(header.frameCount == 1)
        #expect(JPEGDecoder().formats == [.jpeg])
        // The header is all that readHeader needs: the first scan's data can be missing.
        let start = try #require(Support.entropyStart(in: data))
        #expect(try JPEGDecoder().readHeader(data.prefix(start)).storedSize == header.storedSize)
    }

    // MARK: Shrink-on-load

    @Test(
        "DCT scale is the smallest k/8 that still covers the target",
        arguments: [
            (4000, 3000, 500, 375), (4000, 3000, 1000, 750), (4000, 3000, 1001, 751),
            (4000, 3000, 100, 75), (640, 480, 320, 240), (640, 480, 321, 241),
            (640, 480, 640, 480), (641, 479, 80, 60), (100, 100, 13, 13), (100, 100, 200, 200),
            (1000, 10, 300, 3), (7, 7, 1, 1),
        ])
    func dctScale(pair: (Int, Int, Int, Int)) {
        let source = PixelSize(width: pair.0, height: pair.1)
        let target = PixelSize(width: pair.2, height: pair.3)
        let k = JPEGDecoder.dctScale(source: source, output: target)
        #expect((1...8).contains(k))
        let scaled = JPEGDecoder.scaledSize(source, scale: k)
        if k < 8 {
            #expect(scaled.width >= target.width && scaled.height >= target.height, "k \(k): \(scaled) < \(target)")
        }
        // No smaller size covers the target, and no larger k gives the same size.
        if let smallest = (1...8).first(where: {
            let size = JPEGDecoder.scaledSize(source, scale: $0)
            return size.width >= target.width && size.height >= target.height
        }) {
            #expect(scaled == JPEGDecoder.scaledSize(source, scale: smallest), "k \(k) is not the smallest size")
        }
        if k < 8 {
            #expect(JPEGDecoder.scaledSize(source, scale: k + 1) != scaled, "k \(k) could be larger at the same size")
        }
        if (2...4).contains(k) {
            #expect(scaled.width < 2 * target.width && scaled.height < 2 * target.height, "k \(k): \(scaled) ≥ 2 × \(target)")
        }
    }

    @Test("DCT scale: known cases")
    func dctScaleKnown() {
        let big = PixelSize(width: 4000, height: 3000)
        #expect(JPEGDecoder.dctScale(source: big, output: PixelSize(width: 500, height: 375)) == 1)
        #expect(JPEGDecoder.dctScale(source: big, output: PixelSize(width: 1000, height: 750)) == 2)
        #expect(JPEGDecoder.dctScale(source: big, output: PixelSize(width: 1001, height: 751)) == 3)
        #expect(JPEGDecoder.dctScale(source: big, output: PixelSize(width: 2000, height: 1500)) == 4)
        #expect(JPEGDecoder.dctScale(source: big, output: big) == 8)
        #expect(JPEGDecoder.dctScale(source: big, output: PixelSize(width: 8000, height: 6000)) == 8)
        // 3×5 at 7/8 is still 3×5 (rounded up): decode at full scale instead.
        #expect(JPEGDecoder.dctScale(source: PixelSize(width: 3, height: 5), output: PixelSize(width: 3, height: 5)) == 8)
        // 4×4 to 1×1: 1/8 and 2/8 both give 1×1 (3/8 gives 2×2), so 2/8, which covers it exactly.
        #expect(JPEGDecoder.dctScale(source: PixelSize(width: 4, height: 4), output: PixelSize(width: 1, height: 1)) == 2)
    }

    @Test("libjpeg-turbo scales to exactly the size dctScale predicts")
    func libjpegAgreesOnScaledSize() throws {
        let bitmap = SampleImages.photo(width: 203, height: 117, seed: 2)
        let data = try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 80))
        for k in 1...8 {
            let scaled = try data.withUnsafeBytes { bytes in
                let decompressor = try JPEGDecompressor(bytes: bytes, maxScans: 10, maxMemory: 0)
                _ = try decompressor.readHeader()
                return try decompressor.start(scale: k, colorSpace: IRIS_JPEG_CS_RGBX).size
            }
            #expect(scaled == JPEGDecoder.scaledSize(bitmap.size, scale: k), "k \(k)")
        }
    }

    @Test(
        "decoding to a target gives exactly the context's output size",
        arguments: [
            DecodeTarget(width: 100, height: 100), DecodeTarget(width: 150, height: 100),
            DecodeTarget(width: 37, height: 25), DecodeTarget(width: 299, height: 199),
            DecodeTarget(width: 1, height: 1), DecodeTarget(width: 90, height: 90, contentMode: .fill),
            DecodeTarget(width: 600, height: 400, allowsUpscaling: true),
        ])
    func decodeToTarget(target: DecodeTarget) throws {
        let source = SampleImages.photo(width: 300, height: 200, seed: 4)
        for (bitmap, progressive) in [(source, false), (source, true), (source.converted(to: .gray8), false)] {
            let data = try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 90, progressive: progressive))
            let output = target.outputSize(for: bitmap.size)
            let decoded = try Support.decode(data, to: output)
            #expect(decoded.size == output)
            #expect(decoded.format == (bitmap.format == .gray8 ? .gray8 : .rgbx8))
            if output.pixelCount >= 1_000 {
                let (r0, g0, b0) = Support.meanColour(bitmap)
                let (r1, g1, b1) = Support.meanColour(decoded)
                #expect(
                    abs(r0 - r1) < 8 && abs(g0 - g1) < 8 && abs(b0 - b1) < 8,
                    "mean colour \((r1, g1, b1)) vs \((r0, g0, b0)) at \(output)")
            }
        }
    }

    @Test("through a registry: header limits, target size and truncation")
    func throughRegistry() throws {
        let registry = ImageDecoderRegistry(decoders: [JPEGDecoder()])
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90, progressive: true))
        let image = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 40, height: 40)))
        #expect(image.bitmap.size == PixelSize(width: 40, height: 30))
        #expect(image.sourceSize == Self.photo.size)
        #expect(image.format == .jpeg)
        #expect(throws: ImageError.overLimit(.pixels(width: 160, height: 120, limit: 1_000))) {
            try registry.decode(data, options: DecodeOptions(limits: DecodingLimits(maxPixels: 1_000)))
        }
        #expect(throws: ImageError.truncated(format: .jpeg, received: 100, expected: nil)) {
            try registry.decode(data.prefix(100))
        }
    }

    @Test("decode checks the context's pixel limit")
    func pixelLimit() throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions())
        let decoder = JPEGDecoder()
        let context = DecodeContext(
            header: try decoder.readHeader(data), outputSize: PixelSize(width: 16, height: 12),
            options: DecodeOptions(limits: DecodingLimits(maxPixels: 10_000)))
        #expect(throws: ImageError.overLimit(.pixels(width: 160, height: 120, limit: 10_000))) {
            try decoder.decode(data, context: context)
        }
    }

    // MARK: Truncation

    @Test("truncated data throws .truncated, from the header to the last scan", arguments: [false, true])
    func truncated(progressive: Bool) throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95, progressive: progressive))
        let start = try #require(Support.entropyStart(in: data))
        let cuts = [2, 3, 20, start - 5, start + 10, data.count / 3, data.count / 2, data.count - 100, data.count - 3]
        for cut in cuts {
            let prefix = data.prefix(cut)
            #expect(throws: ImageError.truncated(format: .jpeg, received: cut, expected: nil), "cut at \(cut)") {
                try Support.decode(prefix, to: Self.photo.size)
            }
        }
        // The header alone is readable; libjpeg cannot read a header cut short either, and says
        // so as truncation too.
        #expect(try JPEGDecoder().readHeader(data.prefix(start)).width == 160)
        #expect(throws: ImageError.truncated(format: .jpeg, received: 20, expected: nil)) {
            try JPEGDecoder().readHeader(data.prefix(20))
        }
    }

    @Test("a file missing only its EOI marker decodes in full")
    func missingEOI() throws {
        for progressive in [false, true] {
            let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 95, progressive: progressive))
            #expect(data.suffix(2) == Data([0xFF, 0xD9]))
            let whole = try Support.decodeFull(data)
            try expectSameBytes(Support.decodeFull(data.dropLast(2)), whole)
        }
    }

    // MARK: Corruption

    @Test("corrupt SOF fields throw decodingFailed with libjpeg's reason")
    func corruptSOF() throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90))
        let sof = try #require(Support.segment(0xC0, in: data)).lowerBound
        // SOF: FF C0, length (2), precision, height (2), width (2), components, then 3 bytes each.
        let edits: [(String, Int, UInt8)] = [
            ("precision 12", sof + 4, 12), ("height 0 (high byte)", sof + 5, 0), ("no components", sof + 9, 0),
            ("sampling 5×5", sof + 11, 0x55), ("quant table 9", sof + 12, 9),
        ]
        for (name, offset, value) in edits {
            var bad = data
            bad[offset] = value
            if name.hasPrefix("height") { bad[offset + 1] = 0 }
            let outcome = Support.outcome(bad)
            guard case .failure(let error) = outcome, case ImageError.decodingFailed(.jpeg, let reason)? = error as? ImageError else {
                Issue.record("\(name): expected decodingFailed, got \(outcome)")
                continue
            }
            #expect(!reason.isEmpty)
        }
    }

    @Test("corrupt Huffman tables throw decodingFailed")
    func corruptHuffman() throws {
        let data = try JPEGEncoder().encode(Self.photo, options: EncodeOptions(quality: 90))
        let dht = try #require(Support.segment(0xC4, in: data)).lowerBound
        var badIndex = data
        badIndex[dht + 4] = 0x1F  // table class 1, index 15
        var badCounts = data
        for i in 0..<16 { badCounts[dht + 5 + i] = 0xFF }  // 4,080 codes
        for bad in [badIndex, badCounts] {
            #expect {
                try Support.decodeFull(bad)
            } throws: { error in
                guard case ImageError.decodingFailed(.jpeg, let reason) = error else { return false }
                return reason.localizedCaseInsensitiveContains("huffman") || reason.contains("DHT")
            }
        }
    }

    @Test("every single-bit flip in the headers and many in the scan data end in a bitmap or an ImageError")
    func bitFlips() throws {
        for progressive in [false, true] {
            let data = try JPEGEncoder().encode(
                SampleImages.photo(width: 24, height: 16, seed: 7),
                options: EncodeOptions(quality: 80, progressive: progressive))
            let start = try #require(Support.entropyStart(in: data))
            var positions = Array(2..<start)
            positions += stride(from: start, to: data.count - 2, by: max(1, (data.count - start) / 64))
            var failures = 0
            for position in positions {
                for bit in 0..<8 {
                    var bad = data
                    bad[position] ^= 1 << bit
                    switch Support.outcome(bad) {
                    case .success(let bitmap):
                        #expect(bitmap.pixels.count == bitmap.bytesPerRow * bitmap.height)
                    case .failure(let error):
                        failures += 1
                        #expect(error is ImageError, "byte \(position) bit \(bit): \(error)")
                    }
                }
            }
            #expect(failures > 0)
        }
    }

    // MARK: Decompression bombs

    @Test("a progressive JPEG with too many scans is rejected")
    func scanLimit() throws {
        let bitmap = SampleImages.photo(width: 24, height: 16, seed: 8)
        let exhaustive = try JPEGEncoder.encodeExhaustivelyProgressive(bitmap, quality: 90)
        #expect(throws: ImageError.decodingFailed(format: .jpeg, reason: "the progressive JPEG has more than 1000 scans")) {
            try Support.decodeFull(exhaustive)
        }
        // The file itself is valid: with a higher limit it decodes to exactly what a baseline
        // file of the same quality gives (every coefficient is fully refined).
        let decoded = try Support.decodeFull(exhaustive, decoder: JPEGDecoder(maxScans: 5_000))
        let baseline = try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 90))
        expectSameBytes(decoded, try Support.decodeFull(baseline))
        // An ordinary progressive file has about ten scans.
        let ordinary = try JPEGEncoder().encode(bitmap, options: EncodeOptions(progressive: true))
        _ = try Support.decodeFull(ordinary)
        #expect(throws: ImageError.self) { try Support.decodeFull(ordinary, decoder: JPEGDecoder(maxScans: 3)) }
    }
}
#endif
