import Iris
import IrisServerCore
import Testing

/// `trim` and `flip` as processors, on bitmaps with known content.
@Suite struct TrimAndFlipTests {
    /// 100×80 white, with a red 40×20 block at (30, 10).
    static let framed = TestImages.bitmap(width: 100, height: 80) { x, y in
        (30..<70).contains(x) && (10..<30).contains(y) ? RGBA(r: 220, g: 0, b: 0) : RGBA(r: 255, g: 255, b: 255)
    }

    func loaded(_ bitmap: Bitmap) -> LoadedImage { LoadedImage(bitmap: bitmap, format: .png, sourceSize: bitmap.size) }

    @Test func trimCutsTheBorderOfTheCornerColour() throws {
        #expect(TrimProcessor.content(of: Self.framed, trim: TrimOption(threshold: 10)) == PixelRect(x: 30, y: 10, width: 40, height: 20))
        let trimmed = try TrimProcessor(trim: TrimOption(threshold: 10), autoRotate: true).process(loaded(Self.framed))
        #expect(trimmed.bitmap.size == PixelSize(width: 40, height: 20) && trimmed.sourceSize == trimmed.bitmap.size)
        #expect(trimmed.bitmap.rgba(x: 0, y: 0).r == 220)
    }

    @Test func trimEqualSidesCutsTheLesserOfTwo() {
        let both = TrimOption(threshold: 10, equalHorizontal: true, equalVertical: true)
        // Left 30, right 30: equal already; top 10, bottom 50: 10 each.
        #expect(TrimProcessor.content(of: Self.framed, trim: both) == PixelRect(x: 30, y: 10, width: 40, height: 60))
    }

    @Test func trimWithAColourAndAThreshold() {
        // Red is not the border colour: nothing is cut.
        #expect(
            TrimProcessor.content(of: Self.framed, trim: TrimOption(threshold: 10, color: BackgroundColor(red: 0, green: 0, blue: 255)))
                == nil)
        // A threshold that takes the red for border leaves nothing: the image stays whole.
        #expect(TrimProcessor.content(of: Self.framed, trim: TrimOption(threshold: 255)) == nil)
    }

    @Test func trimCutsATransparentBorder() {
        let bitmap = TestImages.bitmap(width: 50, height: 50, alpha: true) { x, y in
            (10..<20).contains(x) && (10..<40).contains(y) ? RGBA(r: 0, g: 0, b: 200, a: 255) : RGBA(r: 0, g: 0, b: 0, a: 0)
        }
        #expect(TrimProcessor.content(of: bitmap, trim: TrimOption(threshold: 10)) == PixelRect(x: 10, y: 10, width: 10, height: 30))
    }

    @Test func flipMirrors() throws {
        let horizontal = try FlipProcessor(horizontal: true, vertical: false).process(loaded(Self.framed)).bitmap
        #expect(horizontal.size == Self.framed.size)
        #expect(horizontal.rgba(x: 99 - 30, y: 10).r == 220 && horizontal.rgba(x: 99 - 29, y: 10).g == 255)
        let vertical = try FlipProcessor(horizontal: false, vertical: true).process(loaded(Self.framed)).bitmap
        #expect(vertical.rgba(x: 30, y: 79 - 10).r == 220 && vertical.rgba(x: 30, y: 10).g == 255)
        let both = try FlipProcessor(horizontal: true, vertical: true).process(loaded(Self.framed)).bitmap
        #expect(both.rgba(x: 99 - 30, y: 79 - 10).r == 220)
    }
}
