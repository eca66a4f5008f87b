/// Resizes whole bitmaps with a separable filter (rows streamed through the same kernels as a decoder writes them: `StreamingResampler`).
///
/// Pixel centres stay aligned (no half-pixel shift), edges are clamped (no dark frame), weights
/// add up to exactly one (a constant image stays constant), and premultiplied colour never
/// exceeds alpha.
public struct Resampler: Sendable {
    /// The kernel.
    public var kernel: ResamplingKernel

    /// Makes a resampler.
    public init(kernel: ResamplingKernel = .lanczos3) { self.kernel = kernel }

    /// `bitmap` resized to `size`, in the same pixel format.
    public func resize(_ bitmap: Bitmap, to size: PixelSize) -> Bitmap {
        if size == bitmap.size { return bitmap }
        let sink = StreamingResampler(source: bitmap.size, output: size, format: bitmap.format, kernel: kernel)
        let rowBytes = bitmap.width * bitmap.format.bytesPerPixel
        bitmap.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            for y in 0..<bitmap.height {
                sink.append(row: UnsafeRawBufferPointer(start: base + y * bitmap.bytesPerRow, count: rowBytes))
            }
        }
        return sink.finish()
    }
}
