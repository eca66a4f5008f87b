import Foundation
import Testing
import IrisSamples
@testable import Iris
import IrisTestSupport

@Suite("Resampler")
struct ResamplerTests {
    // MARK: Helpers

    /// The colour used for constants in each format (premultiplied in rgba8).
    static func colour(for format: PixelFormat) -> RGBA {
        switch format {
        case .rgba8, .bgra8: RGBA(r: 90, g: 37, b: 120, a: 153)
        case .rgbx8, .bgrx8: RGBA(r: 201, g: 13, b: 77)
        case .gray8: RGBA(r: 141, g: 141, b: 141)
        }
    }

    /// Every pixel of `bitmap` equals `expected`.
    static func expectConstant(_ bitmap: Bitmap, _ expected: RGBA, _ context: String) {
        var mismatches = 0
        var first = ""
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.rgba(x: x, y: y) != expected {
                if mismatches == 0 { first = "(\(x), \(y)) = \(bitmap.rgba(x: x, y: y))" }
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(context): \(mismatches) pixels differ from \(expected), first \(first)")
    }

    /// Source coordinate of the centre of output pixel `i` when `source` pixels become `output`.
    static func centre(_ i: Int, source: Int, output: Int) -> Double {
        (Double(i) + 0.5) * Double(source) / Double(output) - 0.5
    }

    /// A straightforward floating-point 2-D resample of one channel, for comparison: every output
    /// pixel is the normalised kernel-weighted sum over all source pixels, edges clamped.
    static func reference(_ bitmap: Bitmap, to size: PixelSize, kernel: ResamplingKernel, channel: KeyPath<RGBA, UInt8>) -> [Double] {
        func weights(source: Int, output: Int) -> [[Double]] {
            let scale = Double(source) / Double(output)
            let filterScale = max(scale, 1)
            return (0..<output).map { i in
                let c = centre(i, source: output == 0 ? 1 : source, output: output)
                var row = [Double](repeating: 0, count: source)
                for j in -source * 4...source * 5 {
                    let w = kernel.value(at: (Double(j) - c) / filterScale)
                    row[min(max(j, 0), source - 1)] += w
                }
                let sum = row.reduce(0, +)
                return row.map { $0 / sum }
            }
        }
        let wx = weights(source: bitmap.width, output: size.width)
        let wy = weights(source: bitmap.height, output: size.height)
        var result = [Double]()
        for oy in 0..<size.height {
            for ox in 0..<size.width {
                var sum = 0.0
                for sy in 0..<bitmap.height where wy[oy][sy] != 0 {
                    for sx in 0..<bitmap.width where wx[ox][sx] != 0 {
                        sum += wy[oy][sy] * wx[ox][sx] * Double(bitmap.rgba(x: sx, y: sy)[keyPath: channel])
                    }
                }
                result.append(min(max(sum, 0), 255))
            }
        }
        return result
    }

    // MARK: Constant images

    @Test("A constant image stays exactly constant, every kernel, format and ratio", arguments: ResamplingKernel.allCases)
    func constantStaysConstant(kernel: ResamplingKernel) {
        let ratios: [(PixelSize, PixelSize)] = [
            (PixelSize(width: 1000, height: 40), PixelSize(width: 333, height: 13)),
            (PixelSize(width: 64, height: 64), PixelSize(width: 16, height: 16)),
            (PixelSize(width: 97, height: 53), PixelSize(width: 40, height: 21)),
            (PixelSize(width: 300, height: 200), PixelSize(width: 7, height: 5)),
            (PixelSize(width: 50, height: 301), PixelSize(width: 49, height: 100)),
        ]
        for format in PixelFormat.allCases {
            let colour = Self.colour(for: format)
            for (source, output) in ratios {
                let input = SampleImages.constant(width: source.width, height: source.height, colour: colour, format: format)
                let expected = input.rgba(x: 0, y: 0)
                let result = Resampler(kernel: kernel).resize(input, to: output)
                #expect(result.size == output)
                Self.expectConstant(result, expected, "\(kernel) \(format) \(source) → \(output)")
            }
        }
    }

    @Test("Upscaling a constant image 2× keeps it constant", arguments: ResamplingKernel.allCases)
    func upscaleConstant(kernel: ResamplingKernel) {
        for format in PixelFormat.allCases {
            let input = SampleImages.constant(width: 37, height: 21, colour: Self.colour(for: format), format: format)
            let result = Resampler(kernel: kernel).resize(input, to: PixelSize(width: 74, height: 42))
            #expect(result.size == PixelSize(width: 74, height: 42))
            Self.expectConstant(result, input.rgba(x: 0, y: 0), "\(kernel) \(format) 2× up")
            // Non-integer upscale, one axis up and the other down.
            let mixed = Resampler(kernel: kernel).resize(input, to: PixelSize(width: 100, height: 9))
            Self.expectConstant(mixed, input.rgba(x: 0, y: 0), "\(kernel) \(format) mixed")
        }
    }

    // MARK: Geometry

    @Test("A linear gradient stays the same gradient: no shift, no edge ringing", arguments: ResamplingKernel.allCases)
    func gradientHasNoShift(kernel: ResamplingKernel) {
        let cases: [(Int, Int)] = [(1000, 333), (999, 100), (640, 480), (100, 250)]
        for format in [PixelFormat.gray8, .rgbx8, .rgba8] {
            // The box does not interpolate: upscaled, it makes steps.
            for (sourceWidth, outputWidth) in cases where kernel != .box || outputWidth < sourceWidth {
                let input = SampleImages.horizontalGradient(width: sourceWidth, height: 5, from: 0, to: 255, format: format)
                let result = Resampler(kernel: kernel).resize(input, to: PixelSize(width: outputWidth, height: 3))
                var worst = 0.0
                for x in 0..<outputWidth {
                    // Expected from the formula at the output pixel's centre (clamped to the image).
                    let c = min(max(Self.centre(x, source: sourceWidth, output: outputWidth), 0), Double(sourceWidth - 1))
                    let expected = 255 * c / Double(sourceWidth - 1)
                    for y in 0..<3 {
                        let pixel = result.rgba(x: x, y: y)
                        worst = max(worst, abs(Double(pixel.r) - expected))
                        #expect(pixel.r == pixel.g && pixel.g == pixel.b)
                        #expect(pixel.a == 255)
                    }
                }
                #expect(worst <= 1, "\(kernel) \(format) \(sourceWidth) → \(outputWidth): off by \(worst)")
            }
        }
    }

    @Test("Matches a floating-point 2-D reference within one level", arguments: [ResamplingKernel.lanczos3, .mitchell, .bilinear])
    func matchesReference(kernel: ResamplingKernel) {
        let input = SampleImages.photo(width: 60, height: 40, seed: 7, format: .rgbx8)
        for size in [PixelSize(width: 17, height: 11), PixelSize(width: 97, height: 23)] {
            let result = Resampler(kernel: kernel).resize(input, to: size)
            for channel in [\RGBA.r, \RGBA.g, \RGBA.b] {
                let expected = Self.reference(input, to: size, kernel: kernel, channel: channel)
                var worst = 0.0
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        worst = max(worst, abs(Double(result.rgba(x: x, y: y)[keyPath: channel]) - expected[y * size.width + x]))
                    }
                }
                #expect(worst <= 1, "\(kernel) → \(size): off by \(worst)")
            }
        }
    }

    @Test("Box is an exact area average at integer ratios")
    func boxAveragesArea() {
        let input = SampleImages.photo(width: 40, height: 30, seed: 3, format: .gray8)
        let result = Resampler(kernel: .box).resize(input, to: PixelSize(width: 10, height: 10))
        for y in 0..<10 {
            for x in 0..<10 {
                var sum = 0
                for sy in (y * 3)..<(y * 3 + 3) { for sx in (x * 4)..<(x * 4 + 4) { sum += Int(input.rgba(x: sx, y: sy).r) } }
                let mean = Double(sum) / 12
                #expect(abs(Double(result.rgba(x: x, y: y).r) - mean) <= 0.5 + 1e-9, "(\(x), \(y))")
            }
        }
    }

    @Test("Output has the requested size and format", arguments: PixelFormat.allCases)
    func outputSizes(format: PixelFormat) {
        let input = SampleImages.photo(width: 123, height: 77, format: format)
        for size in [
            PixelSize(width: 1, height: 1), PixelSize(width: 7, height: 13), PixelSize(width: 123, height: 5),
            PixelSize(width: 200, height: 150), PixelSize(width: 0, height: 4), PixelSize(width: 0, height: 0),
        ] {
            let result = Resampler().resize(input, to: size)
            #expect(result.size == size)
            #expect(result.format == format)
            #expect(result.bytesPerRow == size.width * format.bytesPerPixel)
            #expect(result.pixels.count == result.bytesPerRow * size.height)
        }
    }

    @Test("One-pixel-wide and one-pixel-tall sources")
    func thinSources() {
        for kernel in ResamplingKernel.allCases {
            let colour = RGBA(r: 10, g: 200, b: 30, a: 255)
            let tall = SampleImages.constant(width: 1, height: 500, colour: colour, format: .rgbx8)
            Self.expectConstant(Resampler(kernel: kernel).resize(tall, to: PixelSize(width: 1, height: 50)), colour, "1×500 → 1×50")
            Self.expectConstant(Resampler(kernel: kernel).resize(tall, to: PixelSize(width: 6, height: 41)), colour, "1×500 → 6×41")
            let wide = SampleImages.constant(width: 500, height: 1, colour: colour, format: .rgbx8)
            Self.expectConstant(Resampler(kernel: kernel).resize(wide, to: PixelSize(width: 50, height: 1)), colour, "500×1 → 50×1")
            Self.expectConstant(Resampler(kernel: kernel).resize(wide, to: PixelSize(width: 33, height: 3)), colour, "500×1 → 33×3")

            // A 1-pixel-wide vertical gradient keeps its shape.
            let ramp = SampleImages.horizontalGradient(width: 300, height: 1, format: .gray8)
            var column = Bitmap(width: 1, height: 300, format: .gray8)
            for y in 0..<300 { column.setRGBA(ramp.rgba(x: y, y: 0), x: 0, y: y) }
            let shrunk = Resampler(kernel: kernel).resize(column, to: PixelSize(width: 1, height: 100))
            for y in 0..<100 {
                let expected = 255 * Double(3 * y + 1) / 299
                #expect(abs(Double(shrunk.rgba(x: 0, y: y).r) - expected) <= 1, "\(kernel) row \(y)")
            }
        }
    }

    @Test("Huge ratio 4000 → 3 on both axes")
    func hugeRatio() {
        for kernel in ResamplingKernel.allCases {
            let wide = SampleImages.horizontalGradient(width: 4000, height: 2, format: .rgba8)
            let small = Resampler(kernel: kernel).resize(wide, to: PixelSize(width: 3, height: 1))
            #expect(small.size == PixelSize(width: 3, height: 1))
            let levels = (0..<3).map { Int(small.rgba(x: $0, y: 0).r) }
            #expect(levels[0] < levels[1] && levels[1] < levels[2], "\(kernel): \(levels)")
            #expect(abs(levels[1] - 128) <= 1, "\(kernel): middle \(levels[1])")
            #expect(small.rgba(x: 1, y: 0).a == 255)

            let colour = RGBA(r: 60, g: 50, b: 40, a: 70)
            let tall = SampleImages.constant(width: 2, height: 4000, colour: colour, format: .rgba8)
            Self.expectConstant(
                Resampler(kernel: kernel).resize(tall, to: PixelSize(width: 1, height: 3)), colour, "\(kernel) 2×4000 → 1×3")
        }
    }

    // MARK: Alpha

    @Test("Premultiplied alpha: half-transparent red beside transparent black stays red", arguments: ResamplingKernel.allCases)
    func premultipliedStaysRed(kernel: ResamplingKernel) {
        var input = Bitmap(width: 90, height: 30, format: .rgba8)
        for y in 0..<30 {
            for x in 0..<90 where (x / 7 + y / 5) % 2 == 0 {
                input.setRGBA(RGBA(r: 128, g: 0, b: 0, a: 128), x: x, y: y)
            }
        }
        for size in [PixelSize(width: 13, height: 7), PixelSize(width: 30, height: 10), PixelSize(width: 200, height: 41)] {
            let result = Resampler(kernel: kernel).resize(input, to: size)
            var coloured = 0
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let p = result.rgba(x: x, y: y)
                    #expect(p.g == 0 && p.b == 0)
                    guard p.a > 0 else {
                        #expect(p.r == 0)
                        continue
                    }
                    coloured += 1
                    let red = Double(p.r) * 255 / Double(p.a)
                    #expect(abs(red - 255) <= 2, "\(kernel) \(size) (\(x), \(y)): \(p)")
                }
            }
            #expect(coloured > 0)
        }
    }

    @Test("Premultiplied colour never exceeds alpha after filtering", arguments: ResamplingKernel.allCases)
    func colourWithinAlpha(kernel: ResamplingKernel) {
        let input = SampleImages.photo(width: 150, height: 100, seed: 5, format: .rgba8, alpha: true)
        for size in [PixelSize(width: 41, height: 23), PixelSize(width: 220, height: 160)] {
            let result = Resampler(kernel: kernel).resize(input, to: size)
            var violations = 0
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let p = result.rgba(x: x, y: y)
                    if p.r > p.a || p.g > p.a || p.b > p.a { violations += 1 }
                }
            }
            #expect(violations == 0, "\(kernel) → \(size)")
        }
    }

    // MARK: Streaming

    @Test("Streaming row by row equals resize exactly", arguments: PixelFormat.allCases)
    func streamingMatchesResize(format: PixelFormat) {
        let input = SampleImages.photo(width: 201, height: 151, seed: 9, format: format, alpha: format == .rgba8)
        for kernel in ResamplingKernel.allCases {
            for size in [PixelSize(width: 30, height: 22), PixelSize(width: 250, height: 60)] {
                let whole = Resampler(kernel: kernel).resize(input, to: size)
                let sink = StreamingResampler(source: input.size, output: size, format: format, kernel: kernel)
                let rowBytes = input.width * format.bytesPerPixel
                for y in 0..<input.height {
                    // Each row from its own short-lived buffer, as a decoder hands them over.
                    let row = Array(input.pixels[(y * input.bytesPerRow)..<(y * input.bytesPerRow + rowBytes)])
                    row.withUnsafeBytes { sink.append(row: $0) }
                }
                let streamed = sink.finish()
                expectSameBytes(streamed, whole, "\(kernel) \(format) → \(size)")
            }
        }
    }

    @Test("makeRowSink streams into a resampler")
    func rowSinkFactory() {
        let input = SampleImages.photo(width: 200, height: 100, format: .rgbx8)
        let size = PixelSize(width: 50, height: 25)
        let sink = makeRowSink(source: input.size, output: size, format: .rgbx8, kernel: .mitchell)
        input.withUnsafeBytes { bytes in
            for y in 0..<input.height {
                sink.append(row: UnsafeRawBufferPointer(rebasing: bytes[(y * input.bytesPerRow)..<((y + 1) * input.bytesPerRow)]))
            }
        }
        expectSameBytes(sink.finish(), Resampler(kernel: .mitchell).resize(input, to: size))
    }

    @Test("Missing, short and extra rows neither crash nor change the size")
    func badRowStreams() {
        let colour = RGBA(r: 40, g: 80, b: 120, a: 200)
        let input = SampleImages.constant(width: 64, height: 48, colour: colour, format: .rgba8)
        let size = PixelSize(width: 16, height: 12)
        // Only the top half arrives: the last row is repeated, so the constant survives.
        let truncated = StreamingResampler(source: input.size, output: size, format: .rgba8, kernel: .lanczos3)
        input.withUnsafeBytes { bytes in
            for y in 0..<24 { truncated.append(row: UnsafeRawBufferPointer(rebasing: bytes[(y * 256)..<((y + 1) * 256)])) }
        }
        let partial = truncated.finish()
        #expect(partial.size == size)
        Self.expectConstant(partial, colour, "truncated")
        expectSameBytes(truncated.finish(), partial)

        // Short rows, empty rows and rows past the end.
        let ragged = StreamingResampler(source: input.size, output: size, format: .rgba8, kernel: .bilinear)
        let short = [UInt8](repeating: 9, count: 10)
        for _ in 0..<60 { short.withUnsafeBytes { ragged.append(row: $0) } }
        ragged.append(row: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(ragged.finish().size == size)

        // No rows at all, and empty sizes.
        expectSameBytes(
            StreamingResampler(source: input.size, output: size, format: .rgbx8, kernel: .box).finish(),
            Bitmap(width: 16, height: 12, format: .rgbx8))
        let empty = StreamingResampler(source: PixelSize(width: 0, height: 0), output: size, format: .gray8, kernel: .box)
        empty.append(row: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(empty.finish().size == size)
    }

    @Test("Holds only the rows the kernel needs")
    func ringIsSmall() {
        let table = WeightTable(sourceCount: 3024, outputCount: 225, kernel: .lanczos3)
        // Lanczos-3 at ratio 13.44 spans about 2 × 3 × 13.44 ≈ 81 source rows.
        #expect(table.maxCount <= 84)
        for i in 0..<225 {
            var sum: Int32 = 0
            for k in 0..<Int(table.count[i]) { sum += Int32(table.weights[Int(table.offset[i]) + k]) }
            #expect(sum == weightOne)
        }
    }
}
