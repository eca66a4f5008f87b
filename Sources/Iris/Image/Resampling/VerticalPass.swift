/// Right shift that turns a vertical accumulator (intermediate × weightOne) into 8-bit levels.
let verticalShift = Int32(weightBits + intermediateBits)

/// The vertical pass: combines the intermediate rows one output row needs into that row.
enum VerticalPass {
    /// Accumulates `rows` weighted by `weights` into `acc` (`count` elements), rounding included.
    @inline(__always)
    static func accumulate(
        rows: UnsafePointer<UnsafePointer<Int16>>, weights: UnsafePointer<Int16>, taps: Int,
        into acc: UnsafeMutablePointer<Int32>, count: Int
    ) {
        acc.update(repeating: 1 << (verticalShift - 1), count: count)
        var k = 0
        // Four rows per sweep, so the accumulator row is read and written a quarter as often.
        while k + 4 <= taps {
            let r0 = rows[k], r1 = rows[k + 1], r2 = rows[k + 2], r3 = rows[k + 3]
            let w0 = Int32(weights[k]), w1 = Int32(weights[k + 1]), w2 = Int32(weights[k + 2]), w3 = Int32(weights[k + 3])
            for i in 0..<count {
                acc[i] &+= Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1 &+ Int32(r2[i]) &* w2 &+ Int32(r3[i]) &* w3
            }
            k += 4
        }
        while k < taps {
            let r0 = rows[k], w0 = Int32(weights[k])
            for i in 0..<count { acc[i] &+= Int32(r0[i]) &* w0 }
            k += 1
        }
    }

    /// Writes accumulated four-channel pixels as bytes: clamped to 0...255; premultiplied colour
    /// clamped to ≤ alpha (`premultiplied`), or the filler set to 255 (`opaque`).
    @inline(__always)
    static func store4(_ acc: UnsafePointer<Int32>, pixels: Int, to output: UnsafeMutablePointer<UInt8>, premultiplied: Bool) {
        let source = UnsafeRawPointer(acc)
        let destination = UnsafeMutableRawPointer(output)
        let zero = SIMD4<Int32>(), top = SIMD4<Int32>(repeating: 255)
        for x in 0..<pixels {
            var v = source.load(fromByteOffset: 16 * x, as: SIMD4<Int32>.self) &>> verticalShift
            v = v.clamped(lowerBound: zero, upperBound: top)
            if premultiplied {
                v = pointwiseMin(v, SIMD4(v.w, v.w, v.w, 255))
            } else {
                v.w = 255
            }
            destination.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: v), toByteOffset: 4 * x, as: SIMD4<UInt8>.self)
        }
    }

    /// Writes accumulated one-channel pixels as bytes, clamped to 0...255.
    @inline(__always)
    static func store1(_ acc: UnsafePointer<Int32>, pixels: Int, to output: UnsafeMutablePointer<UInt8>) {
        for x in 0..<pixels {
            output[x] = UInt8(truncatingIfNeeded: min(max(acc[x] &>> verticalShift, 0), 255))
        }
    }
}
