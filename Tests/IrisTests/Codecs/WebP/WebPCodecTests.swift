#if canImport(CWebP)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

@Suite("WebP codec", .serialized)
struct WebPCodecTests {
    let decoder = WebPDecoder()
    let encoder = WebPEncoder()

    private func decode(_ data: Data, to output: PixelSize? = nil) throws -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: output ?? header.storedSize))
    }

    /// The largest difference of any channel, premultiplied.
    private func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                largest = max(
                    largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)),
                    abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        return largest
    }

    @Test("lossless opaque round trip is exact and decodes as rgbx8")
    func losslessOpaque() throws {
        let photo = SampleImages.photo(width: 123, height: 77, seed: 5)
        let data = try encoder.encode(photo, options: EncodeOptions(lossless: true))
        #expect(FormatSniffer.sniff(data).webPKind == .lossless)
        let header = try decoder.readHeader(data)
        #expect(header.storedSize == photo.size)
        #expect(!header.hasAlpha)
        let decoded = try decode(data)
        #expect(decoded.format == .rgbx8)
        expectSameBytes(decoded, photo)
    }

    @Test("lossless with alpha round trips within premultiplication rounding")
    func losslessAlpha() throws {
        let photo = SampleImages.photo(width: 90, height: 64, seed: 9, format: .rgba8, alpha: true)
        let data = try encoder.encode(photo, options: EncodeOptions(lossless: true))
        #expect(try decoder.readHeader(data).hasAlpha)
        let decoded = try decode(data)
        #expect(decoded.format == .rgba8)
        // Unpremultiplying for the encoder and premultiplying again can move a channel by 1.
        #expect(maxDifference(decoded, photo) <= 1)
    }

    @Test("lossy quality 90 stays close to the original", arguments: [false, true])
    func lossy(alpha: Bool) throws {
        let photo = SampleImages.photo(width: 160, height: 120, seed: 3, format: alpha ? .rgba8 : .rgbx8, alpha: alpha)
        let data = try encoder.encode(photo, options: EncodeOptions(quality: 90))
        #expect(FormatSniffer.sniff(data).webPKind == (alpha ? .extended : .lossy))
        let decoded = try decode(data)
        #expect(decoded.format == photo.format)
        let error = JPEGTestSupport.error(decoded, photo)
        #expect(error.mean < 4, "mean error \(error.mean)")
        // A fully transparent pixel stays fully transparent.
        if alpha {
            let clear = (0..<photo.height).flatMap { y in (0..<photo.width).map { (x: $0, y: y) } }
                .filter { photo.rgba(x: $0.x, y: $0.y).a == 0 }
            #expect(!clear.isEmpty)
            #expect(clear.allSatisfy { decoded.rgba(x: $0.x, y: $0.y).a <= 2 })
        }
    }

    @Test("grey bitmaps are written as colour with equal channels")
    func grey() throws {
        let gradient = SampleImages.horizontalGradient(width: 64, height: 4, from: 0, to: 255, format: .gray8)
        let decoded = try decode(try encoder.encode(gradient, options: EncodeOptions(lossless: true)))
        #expect(decoded.format == .rgbx8)
        for x in 0..<64 {
            let p = decoded.rgba(x: x, y: 2)
            #expect(p.r == gradient.rgba(x: x, y: 2).r && p.g == p.r && p.b == p.r)
        }
    }

    @Test("scaled decoding returns exactly the asked size and the same picture")
    func scaled() throws {
        let photo = SampleImages.photo(width: 2048, height: 1536, seed: 11)
        let data = try encoder.encode(photo, options: EncodeOptions(quality: 92))
        let output = PixelSize(width: 300, height: 225)
        let small = try decode(data, to: output)
        #expect(small.size == output)
        // Same picture as our own resampler makes from the full decode.
        let reference = try ImageDecoderRegistry.standard.decode(
            try PNGEncoder().encode(photo, options: EncodeOptions()),
            options: DecodeOptions(target: DecodeTarget(width: 300, height: 300))
        ).bitmap
        #expect(reference.size == output)
        let error = JPEGTestSupport.error(small, reference)
        #expect(error.mean < 6, "mean error \(error.mean) against the full decode resampled")
    }

    @Test("an animation reports its frames and decodes its first frame")
    func animation() throws {
        let frames = (0..<3).map { SampleImages.photo(width: 48, height: 32, seed: UInt64(20 + $0)) }
        let data = try WebPTestWriter.animation(frames)
        #expect(FormatSniffer.sniff(data).isAnimated)
        let header = try decoder.readHeader(data)
        #expect(header.frameCount == 3)
        #expect(header.storedSize == PixelSize(width: 48, height: 32))
        let first = try decode(data)
        #expect(first.format == .rgba8)
        #expect(maxDifference(first, frames[0].converted(to: .rgba8)) == 0)
        #expect(try decode(data, to: PixelSize(width: 24, height: 16)).size == PixelSize(width: 24, height: 16))
    }

    @Test("EXIF orientation 6 in a real WebP turns the image through the registry")
    func orientation() throws {
        let photo = SampleImages.photo(width: 40, height: 20, seed: 2)
        let plain = try encoder.encode(photo, options: EncodeOptions(lossless: true))
        let tagged = EXIFBuilder.webp(plain, addingEXIF: EXIFBuilder.tiff(orientation: 6, byteOrder: .littleEndian))
        let loaded = try ImageDecoderRegistry.standard.decode(tagged)
        #expect(loaded.orientation == .right)
        #expect(loaded.bitmap.size == PixelSize(width: 20, height: 40))
        expectSameBytes(loaded.bitmap, photo.oriented(.right))
    }

    @Test("truncated data is reported as truncated with the RIFF length")
    func truncated() throws {
        let data = try encoder.encode(SampleImages.photo(width: 200, height: 150, seed: 4), options: EncodeOptions(quality: 80))
        for cut in [20, 40, data.count / 2, data.count - 10] {
            let prefix = data.prefix(cut)
            #expect(throws: ImageError.truncated(format: .webp, received: cut, expected: data.count), "cut at \(cut)") {
                try decode(prefix)
            }
        }
    }

    @Test("corrupt bitstreams give an ImageError, never a crash")
    func corrupt() throws {
        let data = try encoder.encode(SampleImages.photo(width: 100, height: 80, seed: 8), options: EncodeOptions(quality: 80))
        var random = SplitMix(seed: 77)
        for _ in 0..<200 {
            var bad = data
            for _ in 0..<4 {
                let index = 12 + Int(random.next() % UInt64(data.count - 12))
                bad[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do {
                _ = try decode(bad)
            } catch {
                #expect(error is ImageError)
            }
        }
    }

    @Test("the encoder refuses sizes WebP cannot store")
    func tooLarge() {
        let wide = Bitmap(width: WebPEncoder.maxDimension + 1, height: 1, format: .rgbx8)
        #expect(throws: ImageError.self) { try encoder.encode(wide, options: EncodeOptions()) }
        #expect(throws: ImageError.self) { try encoder.encode(Bitmap(width: 0, height: 0, format: .rgbx8), options: EncodeOptions()) }
    }
}
#endif
