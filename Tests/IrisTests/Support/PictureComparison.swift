import Testing
@testable import Iris

/// Compares pictures pixel by pixel through ``Bitmap/rgba(x:y:)``, whatever their layouts.
enum PictureComparison {
    /// Pixels of `a` and `b` (same size) whose RGBA differ by more than `tolerance` in a channel.
    static func differingPixels(_ a: Bitmap, _ b: Bitmap, tolerance: Int = 0) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                let worst = max(
                    abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)),
                    abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                if worst > tolerance { count += 1 }
            }
        }
        return count
    }

    /// Expects `a` and `b` to be the same picture: same size and every pixel's RGBA equal.
    static func expectSamePicture(
        _ a: Bitmap, _ b: Bitmap, tolerance: Int = 0, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(a.size == b.size, "\(context): \(a.size) vs \(b.size)", sourceLocation: sourceLocation)
        guard a.size == b.size else { return }
        let differing = differingPixels(a, b, tolerance: tolerance)
        #expect(differing == 0, "\(context): \(differing) of \(a.size.pixelCount) pixels differ", sourceLocation: sourceLocation)
    }

    /// The RGBA a pixel `value` becomes in `format`, by the documented rules: grey takes the
    /// luma and is opaque; opaque formats keep the (premultiplied) colour with alpha 255.
    static func expected(_ value: RGBA, in format: PixelFormat) -> RGBA {
        if format == .gray8 {
            let v = value.luma
            return RGBA(r: v, g: v, b: v, a: 255)
        }
        return format.hasAlpha ? value : RGBA(r: value.r, g: value.g, b: value.b, a: 255)
    }
}
