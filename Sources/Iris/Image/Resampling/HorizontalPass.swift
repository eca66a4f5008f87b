/// Fractional bits of the intermediate rows: a source level `v` is stored as `v << intermediateBits`.
let intermediateBits = 6
/// Right shift that turns a horizontal accumulator (level × weightOne) into intermediate precision.
let horizontalShift = Int32(weightBits - intermediateBits)

/// The horizontal pass: filters one source row into one intermediate row of `Int16`
/// (levels with ``intermediateBits`` fractional bits; overshoot kept for the vertical pass).
enum HorizontalPass {
    /// Four interleaved channels (rgba8, rgbx8, bgra8, bgrx8): all four filtered alike. Two pixels (8 bytes)
    /// per vector, each against its own weight; widening through `Int16` lets the compiler use
    /// 16-bit multiplies, measured ~1.5× faster than one `SIMD4<Int32>` per pixel on plain x86-64.
    @inline(__always)
    static func filter4(_ source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<Int16>, table: WeightTable) {
        let starts = table.start, counts = table.count, offsets = table.offset, weights = table.weights
        let rounding = SIMD4<Int32>(repeating: 1 << (horizontalShift - 1))
        let output = UnsafeMutableRawPointer(row)
        for x in 0..<table.outputCount {
            let n = Int(counts[x])
            let w = weights + Int(offsets[x])
            let p = UnsafeRawPointer(source + 4 * Int(starts[x]))
            var acc0 = SIMD8<Int32>(), acc1 = SIMD8<Int32>()
            var k = 0
            while k + 4 <= n {
                let w0 = w[k], w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3]
                acc0 &+= pair(p, 4 * k) &* SIMD8<Int32>(truncatingIfNeeded: SIMD8<Int16>(w0, w0, w0, w0, w1, w1, w1, w1))
                acc1 &+= pair(p, 4 * k + 8) &* SIMD8<Int32>(truncatingIfNeeded: SIMD8<Int16>(w2, w2, w2, w2, w3, w3, w3, w3))
                k += 4
            }
            acc0 &+= acc1
            var acc = acc0.lowHalf &+ acc0.highHalf &+ rounding
            while k < n {
                acc &+= SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self)) &* Int32(w[k])
                k += 1
            }
            output.storeBytes(of: SIMD4<Int16>(truncatingIfNeeded: acc &>> horizontalShift), toByteOffset: 8 * x, as: SIMD4<Int16>.self)
        }
    }

    /// Two consecutive rgba pixels at `offset` bytes, widened to 32-bit lanes.
    @inline(__always)
    private static func pair(_ p: UnsafeRawPointer, _ offset: Int) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: SIMD8<Int16>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self)))
    }

    /// One channel (gray8).
    @inline(__always)
    static func filter1(_ source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<Int16>, table: WeightTable) {
        let starts = table.start, counts = table.count, offsets = table.offset, weights = table.weights
        let rounding = Int32(1) << (horizontalShift - 1)
        for x in 0..<table.outputCount {
            let n = Int(counts[x])
            let w = weights + Int(offsets[x])
            let p = source + Int(starts[x])
            // Eight taps per vector, then the rest one by one.
            var lanes = SIMD8<Int32>()
            var k = 0
            while k + 8 <= n {
                let pixels = SIMD8<Int32>(
                    truncatingIfNeeded: SIMD8<Int16>(
                        truncatingIfNeeded:
                            UnsafeRawPointer(p).loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self)))
                let taps = SIMD8<Int32>(
                    truncatingIfNeeded:
                        UnsafeRawPointer(w).loadUnaligned(fromByteOffset: 2 * k, as: SIMD8<Int16>.self))
                lanes &+= pixels &* taps
                k += 8
            }
            var acc = lanes.wrappedSum()
            while k < n {
                acc &+= Int32(p[k]) &* Int32(w[k])
                k += 1
            }
            row[x] = Int16(truncatingIfNeeded: (acc &+ rounding) &>> horizontalShift)
        }
    }
}
