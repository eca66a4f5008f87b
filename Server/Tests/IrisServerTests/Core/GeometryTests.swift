import Iris
import IrisServerCore
import Testing

@Suite struct GeometryTests {
    let source = PixelSize(width: 400, height: 300)

    func geometry(_ configure: (inout ProcessingOptions) -> Void, source: PixelSize? = nil) -> Geometry {
        var options = ProcessingOptions()
        configure(&options)
        return Geometry(source: source ?? self.source, options: options)
    }

    @Test func fitKeepsAspectInsideTheBox() {
        let g = geometry { $0.width = 100; $0.height = 100 }
        #expect(g.scaledSize == PixelSize(width: 100, height: 75))
        #expect(g.resultSize == PixelSize(width: 100, height: 75))
    }

    @Test func oneSideDecidesWhenTheOtherIsZero() {
        #expect(geometry { $0.width = 200 }.resultSize == PixelSize(width: 200, height: 150))
        #expect(geometry { $0.height = 150 }.resultSize == PixelSize(width: 200, height: 150))
        #expect(geometry { _ in }.resultSize == source)
    }

    @Test func fillCoversThenCropsToTheBox() {
        let g = geometry { $0.resizingType = .fill; $0.width = 100; $0.height = 100 }
        #expect(g.scaledSize == PixelSize(width: 133, height: 100))
        #expect(g.resultSize == PixelSize(width: 100, height: 100))
    }

    @Test func forceIgnoresAspect() {
        #expect(geometry { $0.resizingType = .force; $0.width = 100; $0.height = 40 }.resultSize == PixelSize(width: 100, height: 40))
    }

    @Test func autoFillsWhenOrientationsMatchElseFits() {
        #expect(geometry { $0.resizingType = .auto; $0.width = 200; $0.height = 100 }.resultSize == PixelSize(width: 200, height: 100))
        #expect(geometry { $0.resizingType = .auto; $0.width = 100; $0.height = 200 }.resultSize == PixelSize(width: 100, height: 75))
    }

    @Test func notEnlargedUnlessAsked() {
        #expect(geometry { $0.width = 800; $0.height = 800 }.resultSize == source)
        #expect(geometry { $0.width = 800; $0.height = 800; $0.enlarge = true }.resultSize == PixelSize(width: 800, height: 600))
    }

    @Test func fillDownShrinksTheBoxInsteadOfEnlarging() {
        let g = geometry { $0.resizingType = .fillDown; $0.width = 800; $0.height = 800 }
        #expect(g.resultSize == PixelSize(width: 300, height: 300))
        let fill = geometry { $0.resizingType = .fill; $0.width = 800; $0.height = 800 }
        #expect(fill.resultSize == PixelSize(width: 400, height: 300))
    }

    @Test func extendFillsTheBox() {
        let g = geometry { $0.width = 200; $0.height = 200; $0.extend = true }
        #expect(g.resultSize == PixelSize(width: 200, height: 200))
        #expect(g.extendTo?.x == 0 && g.extendTo?.y == 25)
    }

    @Test func dprAndZoomMultiplySizes() {
        #expect(geometry { $0.width = 100; $0.height = 100; $0.dpr = 2 }.resultSize == PixelSize(width: 200, height: 150))
        #expect(geometry { $0.width = 100; $0.zoomX = 0.5; $0.zoomY = 0.5 }.resultSize == PixelSize(width: 50, height: 38))
        #expect(geometry { $0.width = 100; $0.padding = Padding(top: 1, right: 2, bottom: 3, left: 4); $0.dpr = 2 }.resultSize
                == PixelSize(width: 212, height: 158))
    }

    @Test func minimumSizesEnlarge() {
        #expect(geometry { $0.width = 100; $0.minHeight = 150 }.resultSize == PixelSize(width: 200, height: 150))
    }

    @Test func cropBeforeResize() {
        let g = geometry { $0.crop = CropOption(width: 0.5, height: 100, gravity: .compass(.southEast, xOffset: 0, yOffset: 0)) }
        #expect(g.sourceCrop == PixelRect(x: 200, y: 200, width: 200, height: 100))
        #expect(g.resultSize == PixelSize(width: 200, height: 100))
    }

    @Test func gravityPlacesTheCrop() {
        let inner = PixelSize(width: 100, height: 100), outer = PixelSize(width: 300, height: 200)
        #expect(Geometry.place(inner, in: outer, gravity: .center, smartAsCentre: true) == PixelRect(x: 100, y: 50, width: 100, height: 100))
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.northWest, xOffset: 0, yOffset: 0), smartAsCentre: true).x == 0)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.east, xOffset: 10, yOffset: 0), smartAsCentre: true).x == 190)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.south, xOffset: 0, yOffset: 0), smartAsCentre: true).y == 100)
        #expect(Geometry.place(inner, in: outer, gravity: .focusPoint(x: 1, y: 0), smartAsCentre: true) == PixelRect(x: 200, y: 0, width: 100, height: 100))
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.west, xOffset: -50, yOffset: 0), smartAsCentre: true).x == 0)
    }
}
