#if canImport(CJPEG) && canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Bad inputs made from real encoded images: truncations, bit flips, lying and impossible
/// sizes, decompression bombs, and things that are not images. Each says what must happen.
struct BadInput: CustomStringConvertible, Sendable {
    /// What decoding the input must give.
    enum Expected: Sendable {
        /// Exactly this error.
        case error(ImageError)
        /// A `.truncated` error for this format (the byte counts are checked separately).
        case truncated(ImageFormat)
        /// `.decodingFailed` for this format: the data contradicts its header.
        case decodingFailed(ImageFormat)
        /// Any ``ImageError`` (bit flips may land anywhere); never a crash.
        case anyError
        /// A successful decode of this size.
        case decodes(PixelSize)
    }

    var name: String
    var data: Data
    var expected: Expected

    var description: String { name }
}

enum BadInputCorpus {
    /// The corpus: the same bytes every run.
    static func make() throws -> [BadInput] {
        var inputs: [BadInput] = [
            BadInput(name: "empty", data: Data(), expected: .error(.emptyData)),
            BadInput(
                name: "html", data: Data("<!DOCTYPE html><html><body>Not found</body></html>".utf8),
                expected: .error(.unsupportedFormat(.html))),
            BadInput(name: "json", data: Data(#"{"error": "no such image"}"#.utf8), expected: .error(.unsupportedFormat(.json))),
            BadInput(name: "random", data: randomBytes(4096, seed: 1), expected: .error(.unsupportedFormat(.unknown))),
            BadInput(name: "png-signature-only", data: Data(PNGBytes.signature), expected: .truncated(.png)),
        ]
        let photo = SampleImages.photo(width: 160, height: 120, seed: 42)
        let sources: [(String, ImageFormat, Data)] = [
            ("jpeg", .jpeg, try JPEGEncoder().encode(photo, options: EncodeOptions(quality: 85))),
            ("jpeg-progressive", .jpeg, try JPEGEncoder().encode(photo, options: EncodeOptions(quality: 85, progressive: true))),
            ("png", .png, try PNGEncoder().encode(photo, options: EncodeOptions())),
            ("webp-lossy", .webp, try WebPEncoder().encode(photo, options: EncodeOptions(quality: 80))),
            ("webp-lossless", .webp, try WebPEncoder().encode(photo, options: EncodeOptions(lossless: true))),
            (
                "gif", .gif,
                try GIFTestWriter.gif(
                    width: 160, height: 120, palette: GIFCodecTests.palette,
                    frames: [.init(width: 160, height: 120, indices: GIFCodecTests.indices(width: 160, height: 120, seed: 3))])
            ),
        ]
        for (name, format, data) in sources {
            for fraction in [0.1, 0.5, 0.9] {
                let cut = Int(Double(data.count) * fraction)
                inputs.append(BadInput(name: "\(name)-truncated-\(cut)", data: data.prefix(cut), expected: .truncated(format)))
            }
            inputs.append(
                BadInput(
                    name: "\(name)-truncated-last-8", data: data.prefix(data.count - 8),
                    expected: format == .png ? .decodes(photo.size) : .truncated(format)))
            var random = SplitMix(seed: UInt64(data.count))
            for flip in 0..<8 {
                var flipped = data
                let index = 4 + Int(random.next() % UInt64(min(64, data.count - 4)))  // header bytes
                flipped[index] ^= UInt8(1 << (flip % 8))
                inputs.append(BadInput(name: "\(name)-bitflip-\(index)-\(flip)", data: flipped, expected: .anyError))
            }
        }
        inputs += try lyingSizes(photo)
        return inputs
    }

    /// Headers that claim more (or less) than the data holds.
    private static func lyingSizes(_ photo: Bitmap) throws -> [BadInput] {
        let pngData = try PNGEncoder().encode(photo, options: EncodeOptions())
        let ihdr = try #require(PNGBytes.chunks(pngData).first { $0.type == "IHDR" })
        func pngClaiming(width: UInt32, height: UInt32) -> Data {
            var bytes = [UInt8](pngData)
            bytes.replaceSubrange(
                ihdr.dataRange.lowerBound..<(ihdr.dataRange.lowerBound + 8), with: PNGBytes.be32(width) + PNGBytes.be32(height))
            return PNGBytes.fixingCRC(Data(bytes), chunk: ihdr)
        }
        let jpegData = try JPEGEncoder().encode(photo, options: EncodeOptions(quality: 85))
        let sof = try #require(JPEGTestSupport.segment(0xC0, in: jpegData))
        func jpegClaiming(width: Int, height: Int) -> Data {
            var bytes = jpegData
            bytes[sof.lowerBound + 5] = UInt8(height >> 8)
            bytes[sof.lowerBound + 6] = UInt8(height & 0xFF)
            bytes[sof.lowerBound + 7] = UInt8(width >> 8)
            bytes[sof.lowerBound + 8] = UInt8(width & 0xFF)
            return bytes
        }
        let limit = DecodingLimits.default.maxPixels
        let tall = SampleImages.horizontalGradient(width: 1, height: 100_000, format: .gray8)
        return [
            BadInput(name: "png-claims-4x-size", data: pngClaiming(width: 640, height: 480), expected: .decodingFailed(.png)),
            BadInput(
                name: "png-zero-width", data: pngClaiming(width: 0, height: 120),
                expected: .error(.invalidDimensions(format: .png, width: 0, height: 120))),
            BadInput(
                name: "png-100000x100000-header", data: pngClaiming(width: 100_000, height: 100_000),
                expected: .error(.overLimit(.pixels(width: 100_000, height: 100_000, limit: limit)))),
            BadInput(
                name: "png-1x100000", data: try PNGEncoder().encode(tall, options: EncodeOptions()),
                expected: .decodes(PixelSize(width: 1, height: 100_000))),
            BadInput(name: "png-1x100000-header-only", data: pngClaiming(width: 1, height: 100_000), expected: .decodingFailed(.png)),
            BadInput(name: "jpeg-claims-4x-size", data: jpegClaiming(width: 640, height: 480), expected: .decodingFailed(.jpeg)),
            BadInput(name: "jpeg-zero-height", data: jpegClaiming(width: 160, height: 0), expected: .anyError),
            BadInput(
                name: "jpeg-60000x60000-header", data: jpegClaiming(width: 60_000, height: 60_000),
                expected: .error(.overLimit(.pixels(width: 60_000, height: 60_000, limit: limit)))),
        ]
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var random = SplitMix(seed: seed)
        var data = Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        data[0] = 0x01  // not a magic byte of anything
        return data
    }
}
#endif
