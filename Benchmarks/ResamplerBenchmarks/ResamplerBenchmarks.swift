import Benchmark
import Iris
import IrisSamples

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
        let input = SampleImages.photo(width: source.width, height: source.height, format: format)
        for kernel in ResamplingKernel.allCases where format == .rgba8 || kernel == .lanczos3 {
            // One iteration = one 12.2-megapixel source: scaledIterations / s ≈ MP/s ÷ 12.2.
            Benchmark("\(source) → \(thumbnail) \(format) \(kernel)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(Resampler(kernel: kernel).resize(input, to: thumbnail))
                }
            }
        }
    }

    let small = SampleImages.photo(width: 504, height: 378, format: .rgba8)
    Benchmark("504×378 → 300×225 rgba8 lanczos3 (after JPEG DCT scaling)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(small, to: thumbnail))
        }
    }
    let tile = SampleImages.photo(width: 300, height: 225, format: .rgba8)
    Benchmark("300×225 → 600×450 rgba8 lanczos3 (upscale)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(tile, to: PixelSize(width: 600, height: 450)))
        }
    }
}
