import Testing
import IrisSamples
@testable import Iris
import IrisTestSupport

@Suite("Bitmap storage")
struct BitmapStorageTests {
    /// Address of the first pixel byte, to tell whether two bitmaps share storage.
    static func address(_ bitmap: Bitmap) -> UnsafeRawPointer? { bitmap.withUnsafeBytes { $0.baseAddress } }

    @Test("copies share storage until one writes; the writer copies and the original stays", arguments: PixelFormat.allCases)
    func copyOnWrite(format: PixelFormat) {
        let original = SampleImages.photo(width: 31, height: 17, seed: 2, format: format, alpha: format.hasAlpha)
        let snapshot = original.pixels
        var copy = original
        #expect(Self.address(copy) == Self.address(original))
        copy.setRGBA(RGBA(r: 1, g: 2, b: 3, a: 4), x: 5, y: 6)
        #expect(Self.address(copy) != Self.address(original))
        expectSameBytes(original.pixels, snapshot)
        #expect(copy != original)
        #expect(copy.rgba(x: 5, y: 6) == PictureComparison.expected(RGBA(r: 1, g: 2, b: 3, a: 4), in: format))
        var other = original
        other.withUnsafeMutableBytes { $0[0] = $0[0] &+ 1 }
        expectSameBytes(original.pixels, snapshot)
        #expect(other.pixels[0] == snapshot[0] &+ 1)
    }

    @Test("a bitmap nobody else holds is written in place")
    func uniqueWritesInPlace() {
        var bitmap = Bitmap(width: 8, height: 8, format: .bgra8)
        let before = Self.address(bitmap)
        bitmap.setRGBA(RGBA(r: 9, g: 8, b: 7, a: 200), x: 0, y: 0)
        bitmap.withUnsafeMutableBytes { $0[5] = 3 }
        #expect(Self.address(bitmap) == before)
        // A copy that has gone away leaves the storage unique again.
        do {
            let copy = bitmap
            expectSameBytes(copy, bitmap)
        }
        bitmap.setRGBA(RGBA(r: 1, g: 1, b: 1, a: 1), x: 1, y: 1)
        #expect(Self.address(bitmap) == before)
    }

    @Test("retained bytes outlive the bitmap and never change: writers copy while they are held")
    func retainedBytesStayPut() {
        var bitmap = SampleImages.photo(width: 20, height: 10, seed: 4, format: .bgra8, alpha: true)
        let snapshot = bitmap.pixels
        let retained = bitmap.retainedBytes()
        #expect(retained.base == Self.address(bitmap))
        #expect(retained.count == snapshot.count)
        // Held by the retain alone, the storage counts as shared: writing copies.
        bitmap.setRGBA(RGBA(r: 0, g: 0, b: 0, a: 0), x: 0, y: 0)
        #expect(Self.address(bitmap) != retained.base)
        bitmap = Bitmap(width: 1, height: 1, format: .gray8)
        expectSameBytes(Array(UnsafeRawBufferPointer(start: retained.base, count: retained.count)), snapshot)
        Bitmap.RetainedBytes.release(context: retained.context)
    }

    @Test("a released retain makes the storage unique again")
    func releaseRestoresUniqueness() {
        var bitmap = Bitmap(width: 4, height: 4, format: .bgrx8)
        let before = Self.address(bitmap)
        Bitmap.RetainedBytes.release(context: bitmap.retainedBytes().context)
        bitmap.setRGBA(RGBA(r: 5, g: 6, b: 7), x: 3, y: 3)
        #expect(Self.address(bitmap) == before)
    }

    @Test("equal by size, format and contents; padding and stride do not count")
    func equality() throws {
        let tight = SampleImages.photo(width: 6, height: 4, seed: 8, format: .bgrx8)
        var padded = [UInt8]()
        let rowBytes = 6 * 4
        for y in 0..<4 {
            padded += tight.pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
            padded += [UInt8](repeating: UInt8(y), count: 8)
        }
        let wide = try #require(Bitmap(width: 6, height: 4, format: .bgrx8, bytesPerRow: rowBytes + 8, pixels: padded))
        expectSameBytes(wide, tight)
        #expect(wide.hashValue == tight.hashValue)
        #expect(Set([wide, tight]).count == 1)
        // The same bytes in another layout are another picture.
        let sameBytes = try #require(Bitmap(width: 6, height: 4, format: .rgbx8, pixels: tight.pixels))
        #expect(sameBytes != tight)
        var changed = tight
        changed.withUnsafeMutableBytes { $0[rowBytes * 3 + 1] ^= 1 }
        #expect(changed != tight)
        #expect(Bitmap(width: 6, height: 4, format: .bgrx8) != Bitmap(width: 4, height: 6, format: .bgrx8))
        #expect(Bitmap(width: 0, height: 3, format: .bgra8) == Bitmap(width: 0, height: 3, format: .bgra8))
    }

    @Test("wrapping an array copies it once: later changes to the array do not reach the bitmap")
    func wrapsArrays() throws {
        var bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let bitmap = try #require(Bitmap(width: 2, height: 1, format: .bgra8, pixels: bytes))
        bytes[0] = 100
        #expect(bitmap.pixels == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(bitmap.cost == 9)
        #expect(bitmap.rgba(x: 1, y: 0) == RGBA(r: 7, g: 6, b: 5, a: 8))
    }

    @Test("hot paths hand back a bitmap that owns its storage alone, tightly packed")
    func hotPathsOwnTheirStorage() {
        let input = SampleImages.photo(width: 40, height: 30, seed: 6, format: .bgra8, alpha: true)
        let makers: [(String, () -> Bitmap)] = [
            ("converted", { input.converted(to: .rgba8) }), ("oriented", { input.oriented(.right) }),
            ("resized", { Resampler().resize(input, to: PixelSize(width: 13, height: 9)) }),
        ]
        for (name, make) in makers {
            var output = make()
            #expect(output.cost == output.bytesPerRow * output.height)
            let before = Self.address(output)
            output.setRGBA(RGBA(r: 0, g: 0, b: 0, a: 0), x: 0, y: 0)
            #expect(Self.address(output) == before, "\(name): written in place, no other owner")
        }
    }
}

@Suite("Bitmap row alignment")
struct BitmapRowAlignmentTests {
    @Test("aligned rows are padded to the alignment and blank like a packed bitmap", arguments: PixelFormat.allCases)
    func alignedRows(format: PixelFormat) {
        for width in [0, 1, 15, 16, 17, 100] {
            let aligned = Bitmap(width: width, height: 3, format: format, rowAlignment: 64)
            #expect(aligned.bytesPerRow % 64 == 0)
            #expect(aligned.bytesPerRow >= width * format.bytesPerPixel)
            #expect(aligned.bytesPerRow < width * format.bytesPerPixel + 64)
            expectSameBytes(aligned, Bitmap(width: width, height: 3, format: format))
            #expect(aligned.cost == aligned.bytesPerRow * 3)
        }
        let packed = Bitmap(width: 7, height: 2, format: format, rowAlignment: 1)
        #expect(packed.bytesPerRow == 7 * format.bytesPerPixel)
    }

    @Test("padded bitmaps go through every stage like packed ones")
    func paddedThroughStages() throws {
        let packed = SampleImages.photo(width: 45, height: 29, seed: 12, format: .bgra8, alpha: true)
        var padded = Bitmap(width: 45, height: 29, format: .bgra8, rowAlignment: 64)
        for y in 0..<29 { for x in 0..<45 { padded.setRGBA(packed.rgba(x: x, y: y), x: x, y: y) } }
        #expect(padded.bytesPerRow == 192 && padded == packed)
        expectSameBytes(padded.oriented(.left), packed.oriented(.left))
        expectSameBytes(padded.converted(to: .rgbx8), packed.converted(to: .rgbx8))
        let size = PixelSize(width: 20, height: 13)
        expectSameBytes(Resampler().resize(padded, to: size), Resampler().resize(packed, to: size))
        let image = LoadedImage(bitmap: padded, format: .png, sourceSize: padded.size)
        let reference = LoadedImage(bitmap: packed, format: .png, sourceSize: packed.size)
        for processor in [
            ImageProcessors.GaussianBlur(radius: 1) as any ImageProcessing, .grayscale, .circle,
            .crop(PixelRect(x: 3, y: 4, width: 20, height: 10)),
        ] {
            try expectSameBytes(processor.process(image).bitmap, processor.process(reference).bitmap, "\(processor.identifier)")
        }
    }
}
