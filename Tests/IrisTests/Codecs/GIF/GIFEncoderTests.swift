#if canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// ``GIFEncoder`` (stills) read back with Iris's own GIF decoder: exact colours when an image has
/// few enough, giflib's median cut for a photo, alpha below half transparent, premultiplied
/// colour unpremultiplied, typed refusals.
@Suite("GIF encoder")
struct GIFEncoderTests {
    /// `count` distinct colours (well apart, none grey), by index.
    static func colours(_ count: Int) -> [RGBA] {
        (0..<count).map { (index: Int) -> RGBA in
            let value = UInt8(index)
            return RGBA(r: value, g: 255 - value, b: value &* 7)
        }
    }

    /// A `width`×`height` bitmap of `palette`'s colours in a deterministic scatter, in `format`.
    static func scattered(_ palette: [RGBA], width: Int, height: Int, seed: UInt64, format: PixelFormat = .rgbx8) -> Bitmap {
        var random = SplitMix(seed: seed)
        var bitmap = Bitmap(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            for x in 0..<width {
                // Every colour appears: the first pixels take them in turn, the rest at random.
                let at = y * width + x
                bitmap.setRGBA(palette[at < palette.count ? at : Int(random.next() % UInt64(palette.count))], x: x, y: y)
            }
        }
        return bitmap.converted(to: format)
    }

    /// Mean absolute difference of the colour channels of two opaque bitmaps of one size.
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        let a = a.converted(to: .rgbx8), b = b.converted(to: .rgbx8)
        var total = 0
        a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        for channel in 0..<3 {
                            total += abs(Int(left[y * a.bytesPerRow + x * 4 + channel]) - Int(right[y * b.bytesPerRow + x * 4 + channel]))
                        }
                    }
                }
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    /// `data` decoded by Iris (the first frame), after checking it is a GIF.
    static func decoded(_ data: Data) throws -> Bitmap {
        #expect(data.prefix(6) == Data("GIF89a".utf8))
        return try ImageDecoderRegistry.standard.decode(data).bitmap
    }

    @Test("255 colours round-trip exactly, from RGB, BGR and RGBA layouts", arguments: [PixelFormat.rgbx8, .bgrx8, .rgba8, .bgra8])
    func exactColours(_ format: PixelFormat) throws {
        let image = Self.scattered(Self.colours(255), width: 61, height: 47, seed: 3, format: format)
        let indexed = try GIFIndexedImage(image)
        #expect(indexed.isExact && indexed.transparentIndex == nil && indexed.palette.count == 256)
        let decoded = try Self.decoded(try GIFEncoder().encode(image, options: EncodeOptions()))
        #expect(decoded.size == image.size)
        expectSameBytes(decoded.converted(to: .rgbx8), image.converted(to: .rgbx8), "\(format)")
    }

    @Test("256 grey levels need no transparent entry: exact, a 256-entry palette")
    func greyLevels() throws {
        let grey = SampleImages.horizontalGradient(width: 256, height: 8, format: .gray8)
        let indexed = try GIFIndexedImage(grey)
        #expect(indexed.isExact && indexed.palette.count == 256)
        let decoded = try Self.decoded(try GIFEncoder().encode(grey, options: EncodeOptions()))
        expectSameBytes(decoded.converted(to: .rgbx8), grey.converted(to: .rgbx8))
    }

    @Test("a few colours make a small palette (a power of two), still exact")
    func smallPalette() throws {
        let image = Self.scattered(Self.colours(5), width: 20, height: 10, seed: 1)
        let indexed = try GIFIndexedImage(image)
        #expect(indexed.palette.count == 8 && indexed.isExact)
        expectSameBytes(try Self.decoded(try GIFEncoder().encode(image, options: EncodeOptions())).converted(to: .rgbx8), image)
    }

    @Test("a photo goes through giflib's median cut: 256 colours, mean difference under 8 levels")
    func photo() throws {
        let photo = SampleImages.photo(width: 320, height: 240, seed: 4)
        let indexed = try GIFIndexedImage(photo)
        #expect(!indexed.isExact && indexed.palette.count == 256 && indexed.transparentIndex == nil)
        let data = try GIFEncoder().encode(photo, options: EncodeOptions())
        let decoded = try Self.decoded(data)
        #expect(decoded.size == photo.size && decoded.format == .rgbx8)
        let difference = Self.meanDifference(decoded, photo)
        #expect(difference < 8, "mean absolute difference \(difference)")
    }

    @Test("photos encoded in parallel get the palettes they get alone (giflib's median cut keeps its sort axis in a global)")
    func parallelEncodes() async throws {
        let photos = (0..<4).map { SampleImages.photo(width: 240, height: 180, seed: 20 + $0) }
        let alone = try photos.map { try GIFEncoder().encode($0, options: EncodeOptions()) }
        let rounds = 6
        let parallel = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for _ in 0..<rounds {
                for (index, photo) in photos.enumerated() {
                    group.addTask { (index, try GIFEncoder().encode(photo, options: EncodeOptions())) }
                }
            }
            var results: [(Int, Data)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(parallel.count == rounds * photos.count)
        for (index, data) in parallel { expectSameBytes(data, alone[index], "photo \(index) encoded in parallel") }
    }

    @Test("alpha below half is transparent, at or above it opaque in its unpremultiplied colour")
    func transparency() throws {
        let straight = RGBA(r: 200, g: 100, b: 50, a: 200)
        for premultiplied in [true, false] {
            var image = Bitmap(width: 4, height: 1, format: .rgba8)
            let values = [straight, RGBA(r: 10, g: 20, b: 30, a: 127), RGBA(r: 0, g: 0, b: 0, a: 0), RGBA(r: 1, g: 2, b: 3, a: 255)]
            for (x, value) in values.enumerated() {
                image.setRGBA(premultiplied ? PNGSampleImage.premultiplied(value) : value, x: x, y: 0)
            }
            if !premultiplied { image = image.markedStraight() }
            let indexed = try GIFIndexedImage(image)
            #expect(indexed.transparentIndex == 0 && indexed.isExact)
            let decoded = try Self.decoded(try GIFEncoder().encode(image, options: EncodeOptions()))
            #expect(decoded.format == .rgba8)
            let first = decoded.rgba(x: 0, y: 0)
            // Unpremultiplying 200's colour may be 1 off; premultiplied colour would be 157, 78, 39.
            #expect(
                first.a == 255 && abs(Int(first.r) - 200) <= 1 && abs(Int(first.g) - 100) <= 1 && abs(Int(first.b) - 50) <= 1,
                "\(first) (premultiplied input: \(premultiplied))")
            #expect(decoded.rgba(x: 1, y: 0).a == 0 && decoded.rgba(x: 2, y: 0).a == 0)
            #expect(decoded.rgba(x: 3, y: 0) == RGBA(r: 1, g: 2, b: 3, a: 255))
        }
    }

    @Test("255 colours beside transparency are exact; 256 go to the median cut, the transparent entry kept")
    func transparentEntryIsReserved() throws {
        for (count, exact) in [(255, true), (256, false)] {
            var image = Self.scattered(Self.colours(count), width: 40, height: 40, seed: 2, format: .rgba8)
            for x in 0..<40 { image.setRGBA(RGBA(r: 0, g: 0, b: 0, a: 0), x: x, y: 39) }
            let indexed = try GIFIndexedImage(image)
            #expect(indexed.isExact == exact && indexed.transparentIndex == 0, "\(count) colours")
            let decoded = try Self.decoded(try GIFEncoder().encode(image, options: EncodeOptions()))
            #expect(decoded.rgba(x: 7, y: 39).a == 0 && decoded.rgba(x: 7, y: 38).a == 255, "\(count) colours")
        }
    }

    @Test("a fully transparent image is one transparent entry")
    func fullyTransparent() throws {
        let image = Bitmap(width: 9, height: 5, format: .rgba8)
        let decoded = try Self.decoded(try GIFEncoder().encode(image, options: EncodeOptions()))
        #expect(decoded.size == PixelSize(width: 9, height: 5) && decoded.rgba(x: 4, y: 2).a == 0)
    }

    @Test("an empty bitmap and one over 65,535 pixels a side are encoding errors naming the cause")
    func refusals() throws {
        #expect(throws: ImageError.encodingFailed(format: .gif, reason: "the image is empty (0×3)")) {
            try GIFEncoder().encode(Bitmap(width: 0, height: 3, format: .rgba8), options: EncodeOptions())
        }
        #expect(throws: ImageError.encodingFailed(format: .gif, reason: "65536×1 is over GIF's limit of 65535 pixels a side")) {
            try GIFEncoder().encode(Bitmap(width: 65536, height: 1, format: .gray8), options: EncodeOptions())
        }
    }

    @Test("the platform's encoders write GIF, still and animated")
    func registered() {
        #expect(ImageEncoders.encoder(for: .gif) is GIFEncoder)
        #expect(ImageEncoders.animationEncoder(for: .gif) is AnimatedGIFEncoder)
    }
}
#endif
