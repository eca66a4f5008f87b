import Iris

/// Deterministic photo-like images: smooth gradients, texture, noise and hard edges, so codecs
/// and resamplers meet what real photos give them (not flat colour). Same seed, same pixels.
public enum SampleImages {
    /// A photo-like picture of `width`×`height` in `format`. With `alpha`, the picture fades
    /// to transparent toward the right and has a fully transparent disc (formats with alpha only).
    public static func photo(width: Int, height: Int, seed: UInt64 = 1, format: PixelFormat = .rgbx8, alpha: Bool = false) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: format)
        var random = SplitMix(seed: seed)
        // A few hard-edged shapes, placed by the seed.
        let shapes = (0..<6).map { _ in
            Shape(
                cx: random.unit() * Double(width), cy: random.unit() * Double(height),
                radius: (0.05 + 0.2 * random.unit()) * Double(min(width, height)),
                colour: (random.unit() * 255, random.unit() * 255, random.unit() * 255),
                isDisc: random.next() & 1 == 0)
        }
        let phase = random.unit() * 6.283
        let bpp = format.bytesPerPixel
        let red = format.isBlueFirst ? 2 : 0, blue = 2 - red
        let stride = bitmap.bytesPerRow
        let w = Double(max(width - 1, 1)), h = Double(max(height - 1, 1))
        bitmap.withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            var noise = SplitMix(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            for y in 0..<height {
                let fy = Double(y) / h
                var offset = y * stride
                for x in 0..<width {
                    let fx = Double(x) / w
                    // Sky-to-ground gradient with a soft ripple.
                    var r = 40 + 170 * fy + 20 * sinApprox(fx * 9 + phase)
                    var g = 90 + 100 * (1 - fy) + 25 * sinApprox(fy * 7 + fx * 3)
                    var b = 200 - 120 * fy + 15 * sinApprox((fx + fy) * 11)
                    for shape in shapes where shape.contains(Double(x), Double(y)) {
                        r = shape.colour.0
                        g = shape.colour.1
                        b = shape.colour.2
                    }
                    let n = Double(Int(noise.next() & 15) - 8)
                    let rr = clamp(r + n), gg = clamp(g + n), bb = clamp(b + n)
                    switch format {
                    case .gray8:
                        p[offset] = RGBA(r: rr, g: gg, b: bb).luma
                    case .rgbx8, .bgrx8:
                        p[offset + red] = rr
                        p[offset + 1] = gg
                        p[offset + blue] = bb
                        p[offset + 3] = 255
                    case .rgba8, .bgra8:
                        var a: UInt8 = 255
                        if alpha {
                            a = clamp(255 - 200 * fx)
                            let dx = fx - 0.25, dy = fy - 0.5
                            if dx * dx + dy * dy < 0.01 { a = 0 }
                        }
                        let a32 = UInt32(a)
                        p[offset + red] = UInt8((UInt32(rr) * a32 + 127) / 255)
                        p[offset + 1] = UInt8((UInt32(gg) * a32 + 127) / 255)
                        p[offset + blue] = UInt8((UInt32(bb) * a32 + 127) / 255)
                        p[offset + 3] = a
                    }
                    offset += bpp
                }
            }
        }
        return bitmap
    }

    /// A horizontal linear gradient from `from` to `to` (grey levels) across the width.
    public static func horizontalGradient(width: Int, height: Int, from: UInt8 = 0, to: UInt8 = 255, format: PixelFormat = .rgbx8) -> Bitmap
    {
        var bitmap = Bitmap(width: width, height: height, format: format)
        for x in 0..<width {
            let t = width == 1 ? 0 : Double(x) / Double(width - 1)
            let v = UInt8((Double(from) + (Double(to) - Double(from)) * t).rounded())
            for y in 0..<height { bitmap.setRGBA(RGBA(r: v, g: v, b: v), x: x, y: y) }
        }
        return bitmap
    }

    /// A bitmap with every pixel `colour` (premultiplied when `format` has alpha).
    public static func constant(width: Int, height: Int, colour: RGBA, format: PixelFormat = .rgba8) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: format)
        for y in 0..<height { for x in 0..<width { bitmap.setRGBA(colour, x: x, y: y) } }
        return bitmap
    }

    private struct Shape {
        var cx, cy, radius: Double
        var colour: (Double, Double, Double)
        var isDisc: Bool
        func contains(_ x: Double, _ y: Double) -> Bool {
            let dx = x - cx, dy = y - cy
            return isDisc ? dx * dx + dy * dy < radius * radius : abs(dx) < radius && abs(dy) < radius * 0.6
        }
    }

    private static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }

    /// A cheap smooth periodic function in [-1, 1] (parabolic sine), so generation stays fast.
    private static func sinApprox(_ x: Double) -> Double {
        let t = x / 6.283185307179586
        let f = t - t.rounded(.down)  // 0..<1
        let u = f < 0.5 ? f * 4 - 1 : 3 - f * 4  // triangle in [-1, 1]
        return u * (2 - abs(u)) * 1.0  // smoothed
    }
}

/// SplitMix64: a tiny deterministic generator, the same on every platform. Tests and samples
/// use it so that every run sees the same "random" bytes.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// A value in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A random byte.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
