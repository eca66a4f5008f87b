import Benchmark
import Iris

/// A `width`×`height` bitmap of smooth gradients with a fine checker on top: the resampler's
/// cost does not depend on the pixels, only their count and format.
func pattern(width: Int, height: Int, format: PixelFormat) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height, format: format)
    for y in 0..<height {
        for x in 0..<width {
            let checker: UInt8 = (x / 3 + y / 3) % 2 == 0 ? 0 : 40
            bitmap.setRGBA(
                RGBA(
                    r: UInt8(x * 215 / width) &+ checker, g: UInt8(y * 215 / height) &+ checker,
                    b: UInt8((x + y) % 256), a: 255), x: x, y: y)
        }
    }
    return bitmap
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 30
    )
    let source = PixelSize(width: 4032, height: 3024)
    let thumbnail = PixelSize(width: 300, height: 225)

    for format in [PixelFormat.rgba8, .gray8] {
        let input = pattern(width: source.width, height: source.height, format: format)
        for kernel in ResamplingKernel.allCases where format == .rgba8 || kernel == .lanczos3 {
            // One iteration = one 12.2-megapixel source: scaledIterations / s ≈ MP/s ÷ 12.2.
            Benchmark("\(source) → \(thumbnail) \(format) \(kernel)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(Resampler(kernel: kernel).resize(input, to: thumbnail))
                }
            }
        }
    }

    let small = pattern(width: 504, height: 378, format: .rgba8)
    Benchmark("504×378 → 300×225 rgba8 lanczos3 (after JPEG DCT scaling)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(small, to: thumbnail))
        }
    }
    let tile = pattern(width: 300, height: 225, format: .rgba8)
    Benchmark("300×225 → 600×450 rgba8 lanczos3 (upscale)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(tile, to: PixelSize(width: 600, height: 450)))
        }
    }
}
