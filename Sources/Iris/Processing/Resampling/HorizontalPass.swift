/// Fractional bits of the intermediate rows: a source level `v` is stored as `v << intermediateBits`.
let intermediateBits = 6
/// Right shift that turns a horizontal accumulator (level × weightOne) into intermediate precision.
let horizontalShift = Int32(weightBits - intermediateBits)

/// The horizontal pass: filters one source row into one intermediate row of `Int16`
/// (levels with ``intermediateBits`` fractional bits; overshoot kept for the vertical pass).
enum HorizontalPass {
    /// Four interleaved channels (rgba8, rgbx8): all four filtered alike, one SIMD vector per pixel.
    @inline(__always)
    static func filter4(_ source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<Int16>, table: WeightTable) {
        let starts = table.start, counts = table.count, offsets = table.offset, weights = table.weights
        let rounding = SIMD4<Int32>(repeating: 1 << (horizontalShift - 1))
        let output = UnsafeMutableRawPointer(row)
        for x in 0..<table.outputCount {
            let n = Int(counts[x])
            let w = weights + Int(offsets[x])
            let p = UnsafeRawPointer(source + 4 * Int(starts[x]))
            var acc0 = SIMD4<Int32>(), acc1 = SIMD4<Int32>()
            var k = 0
            while k + 2 <= n {
                let p0 = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self))
                let p1 = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 4 * k + 4, as: SIMD4<UInt8>.self))
                acc0 &+= p0 &* Int32(w[k])
                acc1 &+= p1 &* Int32(w[k + 1])
                k += 2
            }
            if k < n {
                let p0 = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self))
                acc0 &+= p0 &* Int32(w[k])
            }
            let value = (acc0 &+ acc1 &+ rounding) &>> horizontalShift
            output.storeBytes(of: SIMD4<Int16>(truncatingIfNeeded: value), toByteOffset: 8 * x, as: SIMD4<Int16>.self)
        }
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
            var acc: Int32 = 0
            for k in 0..<n { acc &+= Int32(p[k]) &* Int32(w[k]) }
            row[x] = Int16(truncatingIfNeeded: (acc &+ rounding) &>> horizontalShift)
        }
    }
}
