import Iris
import IrisServerCore
import Testing

/// Result sizes imgproxy's own processing tests expect for a 200×100 source (its published
/// tables for fit, fill and fill-down, with enlarge, extend and extend_aspect_ratio, and for
/// max_result_dimension), checked against Iris's geometry.
@Suite struct ImgproxyGeometryTableTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: ResizingType
        var enlarge = false
        var extend = false
        var exar = false
        var box: (Int, Int)
        var out: (Int, Int)
        var limit: Int?

        var testDescription: String {
            "\(type.rawValue) \(box.0)×\(box.1)\(enlarge ? " enlarge" : "")\(extend ? " extend" : "")\(exar ? " exar" : "")"
                + (limit.map { " mrd \($0)" } ?? "")
        }

        func resultSize() -> PixelSize {
            var options = ProcessingOptions()
            options.resizingType = type
            options.width = box.0
            options.height = box.1
            options.enlarge = enlarge
            options.extend = extend
            options.extendAspectRatio = exar
            options.limits.resultDimension = limit
            return Geometry(source: PixelSize(width: 200, height: 100), options: options).resultSize
        }
    }

    static let sizes: [Case] = [
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (50, 50), out: (50, 25)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (50, 20), out: (40, 20)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (20, 50), out: (20, 10)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (300, 300), out: (200, 100)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (300, 50), out: (100, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (100, 300), out: (100, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (0, 200), out: (200, 100)),
        Case(type: .fit, enlarge: false, extend: false, exar: false, box: (300, 0), out: (200, 100)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (50, 50), out: (50, 25)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (50, 20), out: (40, 20)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (20, 50), out: (20, 10)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (300, 300), out: (300, 150)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (300, 125), out: (250, 125)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (250, 300), out: (250, 125)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (0, 200), out: (400, 200)),
        Case(type: .fit, enlarge: true, extend: false, exar: false, box: (300, 0), out: (300, 150)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (300, 300), out: (300, 300)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (300, 125), out: (300, 125)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (250, 300), out: (250, 300)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (0, 200), out: (200, 200)),
        Case(type: .fit, enlarge: false, extend: true, exar: false, box: (300, 0), out: (300, 100)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (50, 50), out: (50, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (50, 20), out: (50, 20)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (20, 50), out: (20, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (300, 300), out: (200, 200)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (300, 125), out: (240, 100)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (250, 500), out: (200, 400)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (0, 50), out: (100, 50)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (50, 0), out: (50, 25)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (0, 200), out: (200, 100)),
        Case(type: .fit, enlarge: false, extend: false, exar: true, box: (300, 0), out: (200, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (300, 300), out: (200, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (300, 50), out: (200, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (100, 300), out: (100, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (0, 200), out: (200, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: false, box: (300, 0), out: (200, 100)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (300, 300), out: (300, 300)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (300, 125), out: (300, 125)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (250, 300), out: (250, 300)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (0, 200), out: (400, 200)),
        Case(type: .fill, enlarge: true, extend: false, exar: false, box: (300, 0), out: (300, 150)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (300, 300), out: (300, 300)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (300, 125), out: (300, 125)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (250, 300), out: (250, 300)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (300, 50), out: (300, 50)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (100, 300), out: (100, 300)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (0, 200), out: (200, 200)),
        Case(type: .fill, enlarge: false, extend: true, exar: false, box: (300, 0), out: (300, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (50, 50), out: (50, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (50, 20), out: (50, 20)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (20, 50), out: (20, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (300, 300), out: (200, 200)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (300, 125), out: (240, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (250, 500), out: (200, 400)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (300, 50), out: (300, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (100, 300), out: (100, 300)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (0, 50), out: (100, 50)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (50, 0), out: (50, 25)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (0, 200), out: (200, 100)),
        Case(type: .fill, enlarge: false, extend: false, exar: true, box: (300, 0), out: (200, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (300, 300), out: (100, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (300, 125), out: (200, 83)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (250, 300), out: (83, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (0, 200), out: (200, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: false, box: (300, 0), out: (200, 100)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (300, 300), out: (300, 300)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (300, 125), out: (300, 125)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (250, 300), out: (250, 300)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (0, 200), out: (400, 200)),
        Case(type: .fillDown, enlarge: true, extend: false, exar: false, box: (300, 0), out: (300, 150)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (50, 50), out: (50, 50)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (50, 20), out: (50, 20)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (20, 50), out: (20, 50)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (300, 300), out: (300, 300)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (300, 125), out: (300, 125)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (250, 300), out: (250, 300)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (300, 50), out: (300, 50)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (100, 300), out: (100, 300)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (0, 50), out: (100, 50)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (50, 0), out: (50, 25)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (0, 200), out: (200, 200)),
        Case(type: .fillDown, enlarge: false, extend: true, exar: false, box: (300, 0), out: (300, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (50, 50), out: (50, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (50, 20), out: (50, 20)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (20, 50), out: (20, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (300, 300), out: (100, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (300, 125), out: (200, 83)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (250, 300), out: (83, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (0, 50), out: (100, 50)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (50, 0), out: (50, 25)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (0, 200), out: (200, 100)),
        Case(type: .fillDown, enlarge: false, extend: false, exar: true, box: (300, 0), out: (200, 100)),
    ]

    static let limited: [Case] = [
        Case(type: .fit, extend: false, exar: false, box: (100, 100), out: (100, 50), limit: 1000),
        Case(type: .fit, extend: false, exar: false, box: (100, 100), out: (50, 25), limit: 50),
        Case(type: .fit, extend: false, exar: false, box: (0, 0), out: (50, 25), limit: 50),
        Case(type: .fit, extend: false, exar: false, box: (0, 100), out: (100, 50), limit: 100),
        Case(type: .fit, extend: false, exar: false, box: (150, 0), out: (50, 25), limit: 50),
        Case(type: .fit, extend: false, exar: false, box: (1000, 1000), out: (100, 50), limit: 100),
        Case(type: .fit, extend: true, exar: false, box: (1000, 2000), out: (50, 100), limit: 100),
        Case(type: .fit, extend: false, exar: true, box: (1000, 2000), out: (50, 100), limit: 100),
        Case(type: .fill, extend: false, exar: false, box: (100, 100), out: (100, 100), limit: 1000),
        Case(type: .fill, extend: false, exar: false, box: (100, 100), out: (50, 50), limit: 50),
        Case(type: .fill, extend: false, exar: false, box: (1000, 50), out: (50, 13), limit: 50),
        Case(type: .fill, extend: false, exar: false, box: (100, 1000), out: (50, 50), limit: 50),
    ]

    @Test(arguments: sizes) func resizingTypes(_ row: Case) {
        #expect(row.resultSize() == PixelSize(width: row.out.0, height: row.out.1))
    }

    @Test(arguments: limited) func maxResultDimension(_ row: Case) {
        #expect(row.resultSize() == PixelSize(width: row.out.0, height: row.out.1))
    }
}
