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
