import Foundation
import Iris

/// A plain, slow composition of animation frames straight from the specifications (GIF89a,
/// APNG, WebP container), written for the tests: each frame is drawn on a whole-canvas copy
/// in straight-alpha Doubles, and every composed canvas is kept.
enum AnimationReference {
    enum Disposal { case none, background, previous }
    enum Blend { case source, over }

    /// One frame: its rectangle (which may reach past the canvas), straight-alpha pixels, and
    /// what is done with it.
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        /// `width × height` straight-alpha pixels, row by row.
        var pixels: [RGBA]
        var disposal: Disposal
        var blend: Blend
    }

    /// A colour with straight alpha, 0–1.
    struct Colour { var r = 0.0, g = 0.0, b = 0.0, a = 0.0 }

    /// The canvas after each frame, as premultiplied 8-bit pixels.
    static func compose(width: Int, height: Int, frames: [Frame]) -> [[RGBA]] {
        var canvas = [Colour](repeating: Colour(), count: width * height)
        var previous: (frame: Frame, before: [Colour])?
        var out: [[RGBA]] = []
        for frame in frames {
            if let (last, before) = previous {
                switch last.disposal {
                case .none: break
                case .background:
                    for y in last.y..<(last.y + last.height) where y < height {
                        for x in last.x..<(last.x + last.width) where x < width { canvas[y * width + x] = Colour() }
                    }
                case .previous:
                    canvas = before
                }
            }
            let before = canvas
            for fy in 0..<frame.height {
                for fx in 0..<frame.width {
                    let (x, y) = (frame.x + fx, frame.y + fy)
                    guard x < width, y < height else { continue }
                    let p = frame.pixels[fy * frame.width + fx]
                    let source = Colour(r: Double(p.r) / 255, g: Double(p.g) / 255, b: Double(p.b) / 255, a: Double(p.a) / 255)
                    let under = canvas[y * width + x]
                    switch frame.blend {
                    case .source:
                        canvas[y * width + x] = source
                    case .over:
                        // APNG spec / WebP spec: alpha-composite the frame over the canvas.
                        let a = source.a + under.a * (1 - source.a)
                        if a == 0 {
                            canvas[y * width + x] = Colour()
                        } else {
                            func mix(_ s: Double, _ d: Double) -> Double { (s * source.a + d * under.a * (1 - source.a)) / a }
                            canvas[y * width + x] = Colour(
                                r: mix(source.r, under.r), g: mix(source.g, under.g),
                                b: mix(source.b, under.b), a: a)
                        }
                    }
                }
            }
            previous = (frame, before)
            out.append(
                canvas.map { c in
                    func q(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
                    return RGBA(r: q(c.r * c.a), g: q(c.g * c.a), b: q(c.b * c.a), a: q(c.a))
                })
        }
        return out
    }

    /// A premultiplied rgba8 bitmap of `pixels`.
    static func bitmap(width: Int, height: Int, _ pixels: [RGBA]) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: .rgba8)
        for y in 0..<height { for x in 0..<width { bitmap.setRGBA(pixels[y * width + x], x: x, y: y) } }
        return bitmap
    }

    /// The largest channel difference between `bitmap` and `expected`, and where.
    static func maxDifference(_ bitmap: Bitmap, _ expected: [RGBA]) -> (difference: Int, x: Int, y: Int) {
        var worst = (difference: 0, x: 0, y: 0)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let a = bitmap.rgba(x: x, y: y), b = expected[y * bitmap.width + x]
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                if d > worst.difference { worst = (d, x, y) }
            }
        }
        return worst
    }
}

extension AnimationReference {
    /// Every frame of `animation`, asked for in order.
    static func frames(of animation: Animation) async throws -> [Bitmap] {
        var frames: [Bitmap] = []
        for index in 0..<animation.frameCount { frames.append(try await animation.frame(at: index)) }
        return frames
    }
}
