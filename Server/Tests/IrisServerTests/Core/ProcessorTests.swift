import Iris
import Testing

/// The processors the service added to Iris, on bitmaps with known pixels.
@Suite struct ProcessorTests {
    func image(_ bitmap: Bitmap) -> LoadedImage { LoadedImage(bitmap: bitmap, format: .png, sourceSize: bitmap.size) }

    @Test func rotateTurnsClockwise() throws {
        // Left column red, the rest blue: turned 90° clockwise, the top row is red.
        let source = TestImages.bitmap(width: 4, height: 2) { x, _ in x == 0 ? RGBA(r: 255, g: 0, b: 0) : RGBA(r: 0, g: 0, b: 255) }
        let turned = try ImageProcessors.Rotate(degrees: 90).process(image(source)).bitmap
        #expect(turned.size == PixelSize(width: 2, height: 4))
        #expect(turned.rgba(x: 0, y: 0).r == 255 && turned.rgba(x: 1, y: 0).r == 255 && turned.rgba(x: 0, y: 1).b == 255)
        let back = try ImageProcessors.Rotate(degrees: -90).process(image(turned)).bitmap
        #expect(back == source)
        #expect(try ImageProcessors.Rotate(degrees: 180).process(image(source)).bitmap.rgba(x: 3, y: 0).r == 255)
    }

    @Test func canvasPlacesAndFills() throws {
        let source = TestImages.bitmap(width: 2, height: 2) { _, _ in RGBA(r: 10, g: 20, b: 30) }
        let canvas = try ImageProcessors.Canvas(
            size: PixelSize(width: 5, height: 4), x: 3, y: 1,
            background: RGBA(r: 0, g: 255, b: 0)
        ).process(image(source)).bitmap
        #expect(canvas.size == PixelSize(width: 5, height: 4) && !canvas.format.hasAlpha)
        #expect(canvas.rgba(x: 0, y: 0) == RGBA(r: 0, g: 255, b: 0))
        #expect(canvas.rgba(x: 3, y: 1) == RGBA(r: 10, g: 20, b: 30) && canvas.rgba(x: 4, y: 2) == RGBA(r: 10, g: 20, b: 30))
        let clear = try ImageProcessors.Canvas.padding(
            top: 1, right: 0, bottom: 0, left: 0, around: source.size,
            background: RGBA(r: 0, g: 0, b: 0, a: 0)
        ).process(image(source)).bitmap
        #expect(clear.format.hasAlpha && clear.rgba(x: 0, y: 0).a == 0 && clear.rgba(x: 0, y: 1).a == 255)
    }

    @Test func sharpenRaisesEdgeContrastAndKeepsFlatAreas() throws {
        let step = TestImages.bitmap(width: 20, height: 4) { x, _ in x < 10 ? RGBA(r: 100, g: 100, b: 100) : RGBA(r: 150, g: 150, b: 150) }
        let sharp = try ImageProcessors.Sharpen(sigma: 1).process(image(step)).bitmap
        #expect(sharp.rgba(x: 9, y: 2).r < 100 && sharp.rgba(x: 10, y: 2).r > 150)
        #expect(sharp.rgba(x: 0, y: 2).r == 100 && sharp.rgba(x: 19, y: 2).r == 150)
    }

    @Test func pixelateAveragesBlocks() throws {
        let stripes = TestImages.bitmap(width: 4, height: 4) { x, _ in x % 2 == 0 ? RGBA(r: 0, g: 0, b: 0) : RGBA(r: 200, g: 200, b: 200) }
        let blocks = try ImageProcessors.Pixelate(blockSize: 2).process(image(stripes)).bitmap
        for y in 0..<4 { for x in 0..<4 { #expect(blocks.rgba(x: x, y: y).r == 100) } }
    }

    @Test func flattenRemovesAlpha() throws {
        let half = TestImages.bitmap(width: 2, height: 1, alpha: true) { x, _ in
            x == 0 ? RGBA(r: 0, g: 0, b: 0, a: 0) : RGBA(r: 255, g: 255, b: 255, a: 255)
        }
        let flat = try ImageProcessors.Flatten(background: RGBA(r: 0, g: 0, b: 255)).process(image(half)).bitmap
        #expect(
            !flat.format.hasAlpha && flat.rgba(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 255)
                && flat.rgba(x: 1, y: 0) == RGBA(r: 255, g: 255, b: 255))
    }

    @Test func smartCropFollowsDetailAndCentresFlatImages() throws {
        let busyLeft = TestImages.bitmap(width: 300, height: 100) { x, y in
            x < 80 && (x / 4 + y / 4) % 2 == 0 ? RGBA(r: 250, g: 30, b: 30) : RGBA(r: 120, g: 120, b: 120)
        }
        #expect(ImageProcessors.SmartCrop.attentionRect(in: busyLeft, size: PixelSize(width: 100, height: 100)).x == 0)
        let flat = TestImages.bitmap(width: 300, height: 100) { _, _ in RGBA(r: 90, g: 90, b: 90) }
        #expect(
            ImageProcessors.SmartCrop.attentionRect(in: flat, size: PixelSize(width: 100, height: 100))
                == PixelRect(x: 100, y: 0, width: 100, height: 100))
        let skin = TestImages.bitmap(width: 400, height: 100) { x, _ in x > 300 ? RGBA(r: 224, g: 172, b: 140) : RGBA(r: 60, g: 70, b: 60) }
        #expect(ImageProcessors.SmartCrop.attentionRect(in: skin, size: PixelSize(width: 100, height: 100)).x >= 290)
    }
}
