import Foundation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// ``IrisImageView``'s `contentMode` as `UIImageView` users expect it: each mode driven through a
/// model as the view drives it (its decode mode, the slot it offers), with a real PNG.
@MainActor
@Suite("UIKit content modes")
struct ViewContentModeTests {
    /// What a 100 × 100 pt view at 2× decodes of a 400 × 300 PNG in `mode`.
    static func decoded(in mode: ViewContentMode, png: Data) async throws -> PixelSize {
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        let settings = ImageViewSettings(contentMode: mode.decodeMode)
        model.slotContentMode = mode.decodeMode
        model.loadForView(settings.applied(to: ImageRequest(source: .data(id: "photo-\(mode)") { png })))
        model.viewLayoutDidChange(slot: mode.slot(measuring: CGSize(width: 100, height: 100)), displayScale: 2)
        #expect(await modelSettled(model))
        return try #require(model.phase.loadedImage).bitmap.size
    }

    @Test("aspect fill and stretch decode to cover the bounds (sharp), aspect fit to fit them, the other modes at the natural size")
    func decodeFollowsTheContentMode() async throws {
        let png = try TestImages.png(width: 400, height: 300, seed: 61)
        for mode in ViewContentMode.allCases {
            let size = try await Self.decoded(in: mode, png: png)
            switch mode {
            case .scaleAspectFit:
                // Fits 200×200 (the slot is bucketed up a little), never covers it.
                #expect(size.width >= 200 && size.height >= 150 && size.height < 200, "\(mode): \(size) does not fit 200×200")
            case .scaleAspectFill, .scaleToFill, .redraw:
                #expect(size.width >= 200 && size.height >= 200 && size.width < 400, "\(mode): \(size) does not cover 200×200")
            case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight:
                #expect(size == PixelSize(width: 400, height: 300), "\(mode): \(size) is not the natural size")
            }
        }
    }

    @Test("the raw values are UIKit's; fit/fill reads back and sets the aspect modes; a clip is placed as its poster")
    func mapping() {
        // UIView.ContentMode's raw values, in order.
        #expect(ViewContentMode.allCases.map(\.rawValue) == Array(0...12))
        #expect(ViewContentMode(.fill) == .scaleAspectFill && ViewContentMode(.fit) == .scaleAspectFit)
        #expect(ViewContentMode.scaleToFill.fitOrFill == .fill && ViewContentMode.center.fitOrFill == .fit)
        #expect(ViewContentMode.scaleAspectFill.clipPlacement == .fill)
        #expect(ViewContentMode.scaleToFill.clipPlacement == .stretch)
        #expect(ViewContentMode.scaleAspectFit.clipPlacement == .fit)
    }
}
