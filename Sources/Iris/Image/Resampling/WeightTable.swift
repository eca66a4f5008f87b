/// Fixed-point precision of filter weights: a weight of 1.0 is `1 << weightBits`.
let weightBits = 14
/// The fixed-point one: every output pixel's weights add up to exactly this.
let weightOne = Int32(1) << weightBits

/// Precomputed filter taps for one axis: for output pixel `i`, source pixels
/// `start[i] ..< start[i] + count[i]` weighted by `weights[offset[i] ..< offset[i] + count[i]]`.
///
/// Weights are 14-bit fixed point, normalised so they add up to exactly ``weightOne`` (a constant
/// input stays exactly constant), quantised by rounding their running sum. Taps that fall outside the source are folded onto the edge pixel
/// (clamp), so there is no dark frame and no ringing from outside the image.
final class WeightTable {
    /// Number of output pixels.
    let outputCount: Int
    /// First source pixel of each output pixel.
    let start: UnsafeMutablePointer<Int32>
    /// Number of taps of each output pixel.
    let count: UnsafeMutablePointer<Int32>
    /// Where each output pixel's weights begin in `weights`.
    let offset: UnsafeMutablePointer<Int32>
    /// All weights, back to back.
    let weights: UnsafeMutablePointer<Int16>
    /// The largest tap count of any output pixel.
    let maxCount: Int

    /// Taps for resampling `sourceCount` pixels to `outputCount` with `kernel`.
    init(sourceCount: Int, outputCount: Int, kernel: ResamplingKernel) {
        precondition(sourceCount > 0 && outputCount > 0)
        self.outputCount = outputCount
        let scale = Double(sourceCount) / Double(outputCount)
        // Downscaling widens the kernel by the ratio (it low-passes); upscaling interpolates.
        let filterScale = max(scale, 1)
        let support = kernel == .box ? scale / 2 + 0.5 : kernel.radius * filterScale

        var starts = [Int32](), counts = [Int32](), offsets = [Int32](), all = [Int16]()
        starts.reserveCapacity(outputCount)
        counts.reserveCapacity(outputCount)
        offsets.reserveCapacity(outputCount)
        var folded = [Double]()
        var quantised = [Int32]()
        for i in 0..<outputCount {
            // Pixel centres aligned: no half-pixel shift.
            let centre = (Double(i) + 0.5) * scale - 0.5
            let first = Int((centre - support).rounded(.down))
            let last = Int((centre + support).rounded(.up))
            let lo = min(max(first, 0), sourceCount - 1)
            let hi = min(max(last, 0), sourceCount - 1)
            folded.removeAll(keepingCapacity: true)
            folded.append(contentsOf: repeatElement(0, count: hi - lo + 1))
            var sum = 0.0
            for j in first...last {
                let w: Double
                if kernel == .box {
                    // Exact area average: overlap of source pixel j with the output pixel's footprint.
                    let a = max(Double(j) - 0.5, centre - scale / 2)
                    let b = min(Double(j) + 0.5, centre + scale / 2)
                    w = max(0, b - a)
                } else {
                    w = kernel.value(at: (Double(j) - centre) / filterScale)
                }
                guard w != 0 else { continue }
                folded[min(max(j, 0), sourceCount - 1) - lo] += w
                sum += w
            }
            if abs(sum) < 1e-12 {
                // Degenerate (cannot happen with the kernels above): take the nearest pixel.
                for k in folded.indices { folded[k] = 0 }
                folded[min(max(Int(centre.rounded()), lo), hi) - lo] = 1
                sum = 1
            }
            // Quantise by rounding the running sum, so the integers add up to exactly one and
            // each weight is within one unit of its exact value (no error piles up on one tap).
            quantised.removeAll(keepingCapacity: true)
            var running = 0.0
            var previous: Int32 = 0
            for (k, w) in folded.enumerated() {
                running += w
                let next = k == folded.count - 1 ? weightOne : Int32((running / sum * Double(weightOne)).rounded())
                quantised.append(next - previous)
                previous = next
            }
            // Trim zero taps at both ends.
            var from = 0, to = quantised.count
            while from < to - 1, quantised[from] == 0 { from += 1 }
            while to - 1 > from, quantised[to - 1] == 0 { to -= 1 }
            starts.append(Int32(lo + from))
            counts.append(Int32(to - from))
            offsets.append(Int32(all.count))
            for k in from..<to { all.append(Int16(quantised[k])) }
        }
        start = .allocate(capacity: outputCount)
        start.initialize(from: starts, count: outputCount)
        count = .allocate(capacity: outputCount)
        count.initialize(from: counts, count: outputCount)
        offset = .allocate(capacity: outputCount)
        offset.initialize(from: offsets, count: outputCount)
        weights = .allocate(capacity: max(all.count, 1))
        weights.initialize(from: all, count: all.count)
        maxCount = Int(counts.max() ?? 1)
    }

    deinit {
        start.deallocate()
        count.deallocate()
        offset.deallocate()
        weights.deallocate()
    }
}
