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
        let g = geometry {
            $0.width = 100
            $0.height = 100
        }
        #expect(g.scaledSize == PixelSize(width: 100, height: 75))
        #expect(g.resultSize == PixelSize(width: 100, height: 75))
    }

    @Test func oneSideDecidesWhenTheOtherIsZero() {
        #expect(geometry { $0.width = 200 }.resultSize == PixelSize(width: 200, height: 150))
        #expect(geometry { $0.height = 150 }.resultSize == PixelSize(width: 200, height: 150))
        #expect(geometry { _ in }.resultSize == source)
    }

    @Test func fillCoversThenCropsToTheBox() {
        let g = geometry {
            $0.resizingType = .fill
            $0.width = 100
            $0.height = 100
        }
        #expect(g.scaledSize == PixelSize(width: 133, height: 100))
        #expect(g.resultSize == PixelSize(width: 100, height: 100))
    }

    @Test func forceIgnoresAspect() {
        #expect(
            geometry {
                $0.resizingType = .force
                $0.width = 100
                $0.height = 40
            }.resultSize == PixelSize(width: 100, height: 40))
    }

    @Test func autoFillsWhenOrientationsMatchElseFits() {
        #expect(
            geometry {
                $0.resizingType = .auto
                $0.width = 200
                $0.height = 100
            }.resultSize == PixelSize(width: 200, height: 100))
        #expect(
            geometry {
                $0.resizingType = .auto
                $0.width = 100
                $0.height = 200
            }.resultSize == PixelSize(width: 100, height: 75))
    }

    @Test func notEnlargedUnlessAsked() {
        #expect(
            geometry {
                $0.width = 800
                $0.height = 800
            }.resultSize == source)
        #expect(
            geometry {
                $0.width = 800
                $0.height = 800
                $0.enlarge = true
            }.resultSize == PixelSize(width: 800, height: 600))
    }

    @Test func fillDownShrinksTheBoxInsteadOfEnlarging() {
        let g = geometry {
            $0.resizingType = .fillDown
            $0.width = 800
            $0.height = 800
        }
        #expect(g.resultSize == PixelSize(width: 300, height: 300))
        let fill = geometry {
            $0.resizingType = .fill
            $0.width = 800
            $0.height = 800
        }
        #expect(fill.resultSize == PixelSize(width: 400, height: 300))
    }

    @Test func extendFillsTheBox() {
        let g = geometry {
            $0.width = 200
            $0.height = 200
            $0.extend = true
        }
        #expect(g.resultSize == PixelSize(width: 200, height: 200))
        // imgproxy centres at (spare + 1) / 2, rounded half to even: 51 / 2 → 26.
        #expect(g.extendTo?.x == 0 && g.extendTo?.y == 26)
    }

    @Test func dprAndZoomMultiplySizes() {
        #expect(
            geometry {
                $0.width = 100
                $0.height = 100
                $0.dpr = 2
            }.resultSize == PixelSize(width: 200, height: 150))
        #expect(
            geometry {
                $0.width = 100
                $0.zoomX = 0.5
                $0.zoomY = 0.5
            }.resultSize == PixelSize(width: 50, height: 38))
        #expect(
            geometry {
                $0.width = 100
                $0.padding = Padding(top: 1, right: 2, bottom: 3, left: 4)
                $0.dpr = 2
            }.resultSize
                == PixelSize(width: 212, height: 158))
    }

    @Test func minimumSizesEnlarge() {
        // Scaled to 200×150 for the minimum height, then cut to the width asked for, as imgproxy does.
        #expect(
            geometry {
                $0.width = 100
                $0.minHeight = 150
            }.resultSize == PixelSize(width: 100, height: 150))
        #expect(
            geometry {
                $0.minHeight = 150
                $0.minWidth = 100
            }.resultSize == PixelSize(width: 400, height: 300))
        #expect(
            geometry {
                $0.height = 60
                $0.minWidth = 200
            }.resultSize == PixelSize(width: 200, height: 60))
    }

    @Test func cropBeforeResize() {
        let g = geometry { $0.crop = CropOption(width: 0.5, height: 100, gravity: .compass(.southEast, xOffset: 0, yOffset: 0)) }
        #expect(g.sourceCrop == PixelRect(x: 200, y: 200, width: 200, height: 100))
        #expect(g.resultSize == PixelSize(width: 200, height: 100))
    }

    @Test func gravityPlacesTheCrop() {
        let inner = PixelSize(width: 100, height: 100), outer = PixelSize(width: 300, height: 200)
        #expect(Geometry.place(inner, in: outer, gravity: .center) == PixelRect(x: 100, y: 50, width: 100, height: 100))
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.northWest, xOffset: 0, yOffset: 0)).x == 0)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.east, xOffset: 10, yOffset: 0)).x == 190)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.south, xOffset: 0, yOffset: 0)).y == 100)
        #expect(Geometry.place(inner, in: outer, gravity: .focusPoint(x: 1, y: 0)) == PixelRect(x: 200, y: 0, width: 100, height: 100))
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.west, xOffset: -50, yOffset: 0)).x == 0)
    }
    /// imgproxy lowers the dpr to what a small source allows without enlarging: a fill keeps
    /// the box's aspect ratio, an extension its composition, a fit the source's size.
    @Test func dprIsLoweredToWhatTheSourceAllows() {
        let small = PixelSize(width: 100, height: 100)
        let fill = geometry(
            {
                $0.resizingType = .fill
                $0.width = 80
                $0.height = 40
                $0.dpr = 2
            }, source: small)
        #expect(fill.resultSize == PixelSize(width: 100, height: 50) && fill.dprScale == 1.25)
        let extend = geometry(
            {
                $0.width = 200
                $0.height = 200
                $0.dpr = 2
                $0.extend = true
            }, source: small)
        #expect(extend.resultSize == PixelSize(width: 200, height: 200) && extend.dprScale == 1)
        #expect(extend.extendTo?.x == 50 && extend.extendTo?.y == 50)
        let fit = geometry(
            {
                $0.width = 80
                $0.height = 80
                $0.dpr = 2
            }, source: small)
        #expect(fit.resultSize == small)
        // A source big enough takes the whole dpr.
        #expect(
            geometry {
                $0.resizingType = .fill
                $0.width = 80
                $0.height = 40
                $0.dpr = 2
            }.resultSize == PixelSize(width: 160, height: 80))
    }

    @Test func fillDownLeavesAMissingSideUnconstrained() {
        #expect(
            geometry {
                $0.resizingType = .fillDown
                $0.height = 600
            }.resultSize == source)
        #expect(
            geometry {
                $0.resizingType = .fillDown
                $0.width = 200
            }.resultSize == PixelSize(width: 200, height: 150))
        let extended = geometry {
            $0.resizingType = .fillDown
            $0.height = 600
            $0.extend = true
        }
        #expect(extended.resultSize == PixelSize(width: 400, height: 600))
        #expect(
            geometry {
                $0.resizingType = .fillDown
                $0.width = 800
                $0.height = 400
            }.resultSize == PixelSize(width: 400, height: 200))
    }

    @Test func extendAspectRatioKeepsTheBoxShapeNotItsSize() {
        let within = geometry {
            $0.width = 100
            $0.height = 100
            $0.extendAspectRatio = true
        }
        #expect(within.resultSize == PixelSize(width: 100, height: 100) && within.extendTo?.y == 13)
        let beyond = geometry {
            $0.width = 1000
            $0.height = 500
            $0.extendAspectRatio = true
        }
        #expect(beyond.resultSize == PixelSize(width: 600, height: 300) && beyond.extendTo?.x == 100)
        #expect(
            geometry {
                $0.width = 1000
                $0.extendAspectRatio = true
            }.extendTo == nil)
    }

    @Test func maxResultDimensionScalesTheWholeResultDown() {
        var limits = RequestLimits()
        limits.resultDimension = 200
        #expect(geometry { $0.limits = limits }.resultSize == PixelSize(width: 200, height: 150))
        let padded = geometry {
            $0.limits = limits
            $0.padding = Padding(top: 10, right: 10, bottom: 10, left: 10)
        }
        #expect(max(padded.resultSize.width, padded.resultSize.height) <= 200 && padded.resultSize.width >= 198)
        #expect(
            geometry {
                $0.limits = limits
                $0.width = 100
            }.resultSize == PixelSize(width: 100, height: 75))
    }

    @Test func fractionalOffsetsAreFractionsAndPixelOffsetsFollowTheDPR() {
        let inner = PixelSize(width: 100, height: 100), outer = PixelSize(width: 300, height: 200)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.west, xOffset: 0.1, yOffset: 0)).x == 30)
        #expect(Geometry.place(inner, in: outer, gravity: .compass(.west, xOffset: 10, yOffset: 0), dpr: 2).x == 20)
    }
}
