import Testing
@testable import Iris
import IrisSamples
import IrisTestSupport

@Suite("Orientation")
struct OrientationTests {
    /// Where the stored pixel (x, y) of a `w`×`h` bitmap lands for each EXIF orientation.
    static func landing(_ o: Orientation, x: Int, y: Int, w: Int, h: Int) -> (x: Int, y: Int) {
        switch o {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (h - 1 - y, x)
        case .rightMirrored: (h - 1 - y, w - 1 - x)
        case .left: (y, w - 1 - x)
        }
    }

    /// A bitmap whose every pixel differs from every other (in each channel that is stored),
    /// optionally with padded rows whose padding bytes are garbage.
    static func distinct(width: Int, height: Int, format: PixelFormat, padding: Int = 0) -> Bitmap {
        let bpp = format.bytesPerPixel
        let stride = width * bpp + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let n = y * width + x
                let offset = y * stride + x * bpp
                switch format {
                case .gray8:
                    bytes[offset] = UInt8(truncatingIfNeeded: 10 + n * 7)
                case .rgbx8, .bgrx8:
                    bytes[offset] = UInt8(truncatingIfNeeded: n)
                    bytes[offset + 1] = UInt8(truncatingIfNeeded: n >> 8)
                    bytes[offset + 2] = UInt8(truncatingIfNeeded: 200 - n)
                    bytes[offset + 3] = 255
                case .rgba8, .bgra8:
                    // Premultiplied: colour ≤ alpha.
                    let a = UInt8(truncatingIfNeeded: 128 + n % 128)
                    bytes[offset] = UInt8(truncatingIfNeeded: n % 128)
                    bytes[offset + 1] = UInt8(truncatingIfNeeded: (n >> 7) % 128)
                    bytes[offset + 2] = UInt8(truncatingIfNeeded: (3 * n) % 128)
                    bytes[offset + 3] = a
                }
            }
        }
        return Bitmap(width: width, height: height, format: format, bytesPerRow: stride, pixels: bytes)!
    }

    /// Checks every pixel of `out` against the landing formula applied to `input`.
    static func expectMapping(_ input: Bitmap, _ out: Bitmap, _ o: Orientation) {
        let (w, h) = (input.width, input.height)
        #expect(out.format == input.format)
        #expect(out.width == (o.swapsDimensions ? h : w))
        #expect(out.height == (o.swapsDimensions ? w : h))
        if o == .up {
            expectSameBytes(out, input, "orientation 1 returns the bitmap unchanged")
        } else {
            #expect(out.bytesPerRow == out.width * out.format.bytesPerPixel, "the result is tightly packed")
        }
        guard out.width == (o.swapsDimensions ? h : w), out.height == (o.swapsDimensions ? w : h) else { return }
        var mismatches = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = landing(o, x: x, y: y, w: w, h: h)
                if out.rgba(x: p.x, y: p.y) != input.rgba(x: x, y: y) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) pixels misplaced for orientation \(o.rawValue) in \(input.format)")
    }

    @Test(
        "all eight orientations of a 3×2 bitmap in every pixel format follow the EXIF mapping",
        arguments: PixelFormat.allCases, Orientation.allCases)
    func smallMapping(format: PixelFormat, orientation: Orientation) {
        let input = Self.distinct(width: 3, height: 2, format: format)
        Self.expectMapping(input, input.oriented(orientation), orientation)
    }

    @Test(
        "padded rows are read by bytesPerRow and the padding is dropped",
        arguments: PixelFormat.allCases, Orientation.allCases)
    func paddedRows(format: PixelFormat, orientation: Orientation) {
        let input = Self.distinct(width: 5, height: 3, format: format, padding: 3)
        let out = input.oriented(orientation)
        Self.expectMapping(input, out, orientation)
        if orientation != .up {
            #expect(out.pixels.count == 15 * format.bytesPerPixel)
        }
    }

    @Test(
        "sizes that are not multiples of the copy tile (photo-like input)",
        arguments: PixelFormat.allCases)
    func tiledSizes(format: PixelFormat) {
        let input = SampleImages.photo(width: 131, height: 67, seed: 7, format: format, alpha: format == .rgba8)
        for orientation in Orientation.allCases {
            Self.expectMapping(input, input.oriented(orientation), orientation)
        }
    }

    @Test("single rows, single columns and empty bitmaps", arguments: Orientation.allCases)
    func degenerate(orientation: Orientation) {
        for (w, h) in [(1, 1), (7, 1), (1, 7)] {
            let input = Self.distinct(width: w, height: h, format: .rgba8)
            Self.expectMapping(input, input.oriented(orientation), orientation)
        }
        for (w, h) in [(0, 0), (0, 4), (4, 0)] {
            let out = Bitmap(width: w, height: h, format: .gray8).oriented(orientation)
            #expect(out.size == (orientation.swapsDimensions ? PixelSize(width: h, height: w) : PixelSize(width: w, height: h)))
            #expect(out.pixels.isEmpty)
        }
    }

    @Test("EXIF wording: where stored row 0 and column 0 end up", arguments: Orientation.allCases)
    func exifWording(orientation: Orientation) {
        // EXIF 2.3, tag 0x0112: the visual position of the 0th row and the 0th column.
        enum Side { case top, bottom, left, right }
        let (row0, column0): (Side, Side) =
            switch orientation {
            case .up: (.top, .left)
            case .upMirrored: (.top, .right)
            case .down: (.bottom, .right)
            case .downMirrored: (.bottom, .left)
            case .leftMirrored: (.left, .top)
            case .right: (.right, .top)
            case .rightMirrored: (.right, .bottom)
            case .left: (.left, .bottom)
            }
        // Mark stored row 0 red and stored column 0 blue (the corner is both: purple).
        let (w, h) = (4, 3)
        var input = Bitmap(width: w, height: h, format: .rgbx8)
        for x in 0..<w { input.setRGBA(RGBA(r: 255, g: 0, b: 0), x: x, y: 0) }
        for y in 0..<h { input.setRGBA(RGBA(r: input.rgba(x: 0, y: y).r, g: 0, b: 255), x: 0, y: y) }
        let out = input.oriented(orientation)
        func side(_ s: Side) -> [RGBA] {
            switch s {
            case .top: (0..<out.width).map { out.rgba(x: $0, y: 0) }
            case .bottom: (0..<out.width).map { out.rgba(x: $0, y: out.height - 1) }
            case .left: (0..<out.height).map { out.rgba(x: 0, y: $0) }
            case .right: (0..<out.height).map { out.rgba(x: out.width - 1, y: $0) }
            }
        }
        #expect(side(row0).allSatisfy { $0.r == 255 }, "row 0 should be the visual \(row0) for \(orientation.rawValue)")
        #expect(side(column0).allSatisfy { $0.b == 255 }, "column 0 should be the visual \(column0) for \(orientation.rawValue)")
        // Nothing else is marked: the marked pixels are exactly one row and one column.
        let marked = (0..<out.height).flatMap { y in (0..<out.width).map { out.rgba(x: $0, y: y) } }.filter { $0.r == 255 || $0.b == 255 }
        #expect(marked.count == w + h - 1)
    }

    @Test("rows aligned for Core Animation stay aligned when turned, odd widths included, pixel for pixel", arguments: Orientation.allCases)
    func alignmentIsKept(orientation: Orientation) {
        for (width, height) in [(37, 23), (1, 17), (65, 3)] {
            let packed = Self.distinct(width: width, height: height, format: .bgra8)
            let aligned = packed.alignedForDisplay()  // as ImageIO's decode draws it
            #expect(aligned.isAlignedForDisplay && !packed.isAlignedForDisplay)
            let turned = aligned.oriented(orientation)
            #expect(turned.isAlignedForDisplay, "\(orientation) of \(width)×\(height): \(turned.bytesPerRow) bytes a row")
            expectSameBytes(turned, packed.oriented(orientation), "\(orientation) of \(width)×\(height)")
        }
    }

    @Test("an orientation followed by its inverse is the identity", arguments: PixelFormat.allCases)
    func inverses(format: PixelFormat) {
        let input = Self.distinct(width: 5, height: 3, format: format)
        // 6 and 8 undo each other; the mirrors, 180°, transpose and transverse undo themselves.
        let pairs: [(Orientation, Orientation)] = [
            (.right, .left), (.left, .right), (.down, .down), (.upMirrored, .upMirrored),
            (.downMirrored, .downMirrored), (.leftMirrored, .leftMirrored), (.rightMirrored, .rightMirrored),
        ]
        for (a, b) in pairs {
            expectSameBytes(input.oriented(a).oriented(b), input, "\(a.rawValue) then \(b.rawValue)")
        }
    }

    @Test("compositions: two quarter turns make 180°, mirror plus a turn makes the diagonals")
    func compositions() {
        let input = SampleImages.photo(width: 9, height: 5, seed: 3, format: .rgba8, alpha: true)
        expectSameBytes(input.oriented(.right).oriented(.right), input.oriented(.down))
        expectSameBytes(input.oriented(.left).oriented(.left), input.oriented(.down))
        expectSameBytes(input.oriented(.upMirrored).oriented(.downMirrored), input.oriented(.down))
        // Transpose = mirror left–right, then turn 90° counter-clockwise.
        expectSameBytes(input.oriented(.upMirrored).oriented(.left), input.oriented(.leftMirrored))
        // Transverse = mirror left–right, then turn 90° clockwise.
        expectSameBytes(input.oriented(.upMirrored).oriented(.right), input.oriented(.rightMirrored))
        // Four quarter turns are the identity.
        expectSameBytes(input.oriented(.right).oriented(.right).oriented(.right).oriented(.right), input)
    }

    @Test("rgbx8 keeps its filler byte at 255")
    func fillerByte() {
        let input = SampleImages.photo(width: 6, height: 4, seed: 5, format: .rgbx8)
        for orientation in Orientation.allCases {
            let out = input.oriented(orientation)
            #expect(stride(from: 3, to: out.pixels.count, by: 4).allSatisfy { out.pixels[$0] == 255 })
        }
    }
}
