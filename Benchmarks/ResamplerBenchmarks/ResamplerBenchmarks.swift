import Benchmark
import Iris

/// A photo-sized input: smooth gradients plus noise, so the filter meets what photos give it.
func photoLike(width: Int, height: Int, format: PixelFormat) -> Bitmap {
    let bpp = format.bytesPerPixel
    var bytes = [UInt8](repeating: 255, count: width * height * bpp)
    var state: UInt32 = 0x1234_5678
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Int(state >> 28) - 8
            let offset = (y * width + x) * bpp
            let r = (x * 255 / width + noise) & 255, g = (y * 255 / height + noise) & 255, b = ((x + y) & 255)
            if bpp == 1 {
                bytes[offset] = UInt8(truncatingIfNeeded: (r + g + b) / 3)
            } else {
                bytes[offset] = UInt8(r); bytes[offset + 1] = UInt8(g); bytes[offset + 2] = UInt8(b)
            }
        }
    }
    return Bitmap(width: width, height: height, format: format, pixels: bytes)!
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
        let input = photoLike(width: source.width, height: source.height, format: format)
        for kernel in ResamplingKernel.allCases where format == .rgba8 || kernel == .lanczos3 {
            // One iteration = one 12.2-megapixel source: scaledIterations / s ≈ MP/s ÷ 12.2.
            Benchmark("\(source) → \(thumbnail) \(format) \(kernel)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(Resampler(kernel: kernel).resize(input, to: thumbnail))
                }
            }
        }
    }

    let small = photoLike(width: 504, height: 378, format: .rgba8)
    Benchmark("504×378 → 300×225 rgba8 lanczos3 (after JPEG DCT scaling)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(small, to: thumbnail))
        }
    }
    let tile = photoLike(width: 300, height: 225, format: .rgba8)
    Benchmark("300×225 → 600×450 rgba8 lanczos3 (upscale)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Resampler().resize(tile, to: PixelSize(width: 600, height: 450)))
        }
    }
}
