// PLACEHOLDER (skeleton): nearest-neighbour only. The resampler work replaces this file whole,
// keeping the API: ResamplingKernel, Resampler.resize(_:to:), StreamingResampler.

/// The filter used to resample.
public enum ResamplingKernel: String, Sendable, Hashable, CaseIterable {
    /// Lanczos, a = 3: sharpest; the default.
    case lanczos3
    /// Mitchell–Netravali (B = C = 1/3): softer, no ringing.
    case mitchell
    /// Bilinear (triangle) filter.
    case bilinear
    /// Box filter (area average).
    case box
}

/// Resizes whole bitmaps.
public struct Resampler: Sendable {
    /// The kernel.
    public var kernel: ResamplingKernel

    /// Makes a resampler.
    public init(kernel: ResamplingKernel = .lanczos3) { self.kernel = kernel }

    /// `bitmap` resized to `size`.
    public func resize(_ bitmap: Bitmap, to size: PixelSize) -> Bitmap {
        let sink = StreamingResampler(source: bitmap.size, output: size, format: bitmap.format, kernel: kernel)
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height {
                sink.append(row: UnsafeRawBufferPointer(rebasing: bytes[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + bitmap.width * bitmap.format.bytesPerPixel)]))
            }
        }
        return sink.finish()
    }
}

/// Resamples rows as they arrive, holding only a few source rows at a time.
public final class StreamingResampler: RowSink {
    private let source: PixelSize
    private var output: Bitmap
    private var nextRow = 0

    /// Makes a resampler from `source` to `output` size.
    public init(source: PixelSize, output: PixelSize, format: PixelFormat, kernel: ResamplingKernel) {
        self.source = source
        self.output = Bitmap(width: output.width, height: output.height, format: format)
    }

    public func append(row: UnsafeRawBufferPointer) {
        let bpp = output.format.bytesPerPixel
        let outW = output.width, outH = output.height, stride = output.bytesPerRow
        for oy in 0..<outH where (oy * source.height + source.height / 2) / outH == nextRow {
            output.withUnsafeMutableBytes { dst in
                for ox in 0..<outW {
                    let sx = (ox * source.width + source.width / 2) / outW
                    for c in 0..<bpp { dst[oy * stride + ox * bpp + c] = row[sx * bpp + c] }
                }
            }
        }
        nextRow += 1
    }

    public func finish() -> Bitmap { output }
}
