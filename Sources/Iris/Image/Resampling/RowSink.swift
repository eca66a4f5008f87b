/// Receives a decoder's rows top to bottom, in the sink's pixel format (premultiplied), so a
/// decoder can stream into a resampler without holding the full-resolution image.
protocol RowSink: AnyObject {
    /// Takes the next source row: `width × bytesPerPixel` bytes.
    func append(row: UnsafeRawBufferPointer)
    /// The finished output, once every source row has been appended.
    func finish() -> Bitmap
}

/// The sink for a decode of `source` to `output`: a plain writer when the sizes match,
/// a ``StreamingResampler`` otherwise.
func makeRowSink(source: PixelSize, output: PixelSize, format: PixelFormat, kernel: ResamplingKernel) -> any RowSink {
    if source == output { return BitmapRowWriter(size: source, format: format) }
    return StreamingResampler(source: source, output: output, format: format, kernel: kernel)
}
