import Foundation
import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

/// Orientation through the whole decode: EXIF read from the file, pixels turned upright, and a
/// target size that applies to the upright image.
@Suite("Oriented decoding")
struct OrientedDecodeTests {
    static let stored = SampleImages.photo(width: 60, height: 40, seed: 21)

    static func png(orientation: Orientation) throws -> Data {
        let plain = try TestImages.png(stored)
        return EXIFBuilder.png(plain, insertingEXIF: EXIFBuilder.tiff(orientation: UInt16(orientation.rawValue)))
    }

    @Test("each EXIF orientation is read and applied", arguments: Orientation.allCases)
    func appliesOrientation(_ orientation: Orientation) throws {
        let data = try Self.png(orientation: orientation)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        #expect(header.orientation == orientation)
        let image = try ImageDecoderRegistry.standard.decode(data)
        #expect(image.orientation == orientation)
        #expect(image.sourceSize == (orientation.swapsDimensions ? PixelSize(width: 40, height: 60) : PixelSize(width: 60, height: 40)))
        expectSameBytes(image.bitmap, Self.stored.oriented(orientation))
        // Opting out keeps the stored pixels.
        let raw = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(appliesOrientation: false))
        expectSameBytes(raw.bitmap, Self.stored)
    }

    @Test("the target applies to the upright image (5–8 exchange the sides)", arguments: Orientation.allCases)
    func targetAfterOrientation(_ orientation: Orientation) throws {
        let data = try Self.png(orientation: orientation)
        let image = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 30, height: 30)))
        #expect(image.bitmap.size == (orientation.swapsDimensions ? PixelSize(width: 20, height: 30) : PixelSize(width: 30, height: 20)))
        let fill = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: 20, height: 10, contentMode: .fill)))
        #expect(fill.bitmap.size == (orientation.swapsDimensions ? PixelSize(width: 20, height: 30) : PixelSize(width: 20, height: 13)))
    }
}
