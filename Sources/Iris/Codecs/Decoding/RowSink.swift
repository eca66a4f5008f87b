/// Receives a decoder's rows top to bottom, in the sink's pixel format (premultiplied), so a
/// decoder can stream into a resampler without holding the full-resolution image.
protocol RowSink: AnyObject {
    /// Takes the next source row: `width × bytesPerPixel` bytes.
    func append(row: UnsafeRawBufferPointer)
    /// The finished output, once every source row has been appended.
    func finish() -> Bitmap
}

/// A sink that keeps rows as they come: the output is the source.
final class BitmapRowWriter: RowSink {
    private var bitmap: Bitmap
    private var nextRow = 0

    /// Makes a writer for a `size` image in `format`.
    init(size: PixelSize, format: PixelFormat) {
        bitmap = Bitmap(width: size.width, height: size.height, format: format)
    }

    func append(row: UnsafeRawBufferPointer) {
        guard nextRow < bitmap.height else { return }
        let stride = bitmap.bytesPerRow
        let offset = nextRow * stride
        let count = min(stride, row.count)
        bitmap.withUnsafeMutableBytes { dst in
            dst.baseAddress!.advanced(by: offset).copyMemory(from: row.baseAddress!, byteCount: count)
        }
        nextRow += 1
    }

    func finish() -> Bitmap { bitmap }
}

/// The sink for a decode of `source` to `output`: a plain writer when the sizes match,
/// a ``StreamingResampler`` otherwise.
func makeRowSink(source: PixelSize, output: PixelSize, format: PixelFormat, kernel: ResamplingKernel) -> any RowSink {
    if source == output { return BitmapRowWriter(size: source, format: format) }
    return StreamingResampler(source: source, output: output, format: format, kernel: kernel)
}
