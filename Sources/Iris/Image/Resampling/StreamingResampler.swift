/// Resamples rows as they arrive, holding only the few filtered rows the next output row needs.
///
/// Each source row is filtered horizontally as it comes (into a ring of intermediate rows of
/// 14-bit-weight fixed point with 6 fractional bits); an output row is filtered vertically as soon
/// as its last source row is in. Memory is O(kernel support × output width): the full-resolution
/// image is never held. Works for downscaling and upscaling, per axis independently.
final class StreamingResampler: RowSink {
    private let source: PixelSize
    private let output: PixelSize
    private let format: PixelFormat
    private let channels: Int
    /// Taps per axis; `nil` when either size is empty (the output is then blank).
    private let horizontal: WeightTable?
    private let vertical: WeightTable?
    /// Elements (not bytes) in one intermediate row: output width × channels.
    private let rowElements: Int
    /// Intermediate rows, source row `y` at slot `y % ringRows`.
    private let ringRows: Int
    private let ring: UnsafeMutablePointer<Int16>
    /// The rows the output row being made reads, in tap order.
    private let tapRows: UnsafeMutablePointer<UnsafePointer<Int16>>
    private let accumulator: UnsafeMutablePointer<Int32>
    /// Holds a short source row, padded with zeros.
    private let scratch: UnsafeMutablePointer<UInt8>
    /// The output, written row by row in place (its storage is not shared until `finish`).
    private var bitmap: Bitmap
    private var nextSourceRow = 0
    private var nextOutputRow = 0
    /// The last source row filtered into the ring, if any.
    private var lastFilteredRow = -1

    /// Makes a resampler from `source` to `output` size, for rows in `format` (rows of a format
    /// with alpha are premultiplied; all four channels are filtered alike, in any byte order).
    init(source: PixelSize, output: PixelSize, format: PixelFormat, kernel: ResamplingKernel) {
        let source = PixelSize(width: max(source.width, 0), height: max(source.height, 0))
        let output = PixelSize(width: max(output.width, 0), height: max(output.height, 0))
        self.source = source
        self.output = output
        self.format = format
        channels = format.bytesPerPixel
        bitmap = Bitmap(width: output.width, height: output.height, format: format)
        if source.pixelCount > 0 && output.pixelCount > 0 {
            let h = WeightTable(sourceCount: source.width, outputCount: output.width, kernel: kernel)
            let v = WeightTable(sourceCount: source.height, outputCount: output.height, kernel: kernel)
            horizontal = h
            vertical = v
            ringRows = v.maxCount
        } else {
            horizontal = nil
            vertical = nil
            ringRows = 1
        }
        rowElements = output.width * channels
        ring = .allocate(capacity: max(ringRows * rowElements, 1))
        ring.initialize(repeating: 0, count: max(ringRows * rowElements, 1))
        tapRows = .allocate(capacity: ringRows)
        accumulator = .allocate(capacity: max(rowElements, 1))
        scratch = .allocate(capacity: max(source.width * channels, 1))
    }

    deinit {
        ring.deallocate()
        tapRows.deallocate()
        accumulator.deallocate()
        scratch.deallocate()
    }

    /// Takes the next source row (`width × bytesPerPixel` bytes, top to bottom). Rows past the
    /// source height are ignored; a short row is padded with zeros.
    func append(row: UnsafeRawBufferPointer) {
        guard let horizontal, let vertical, nextSourceRow < source.height else { return }
        let y = nextSourceRow
        nextSourceRow += 1
        // A row before the next output row's first tap is needed by no output row left.
        guard nextOutputRow < output.height, y >= Int(vertical.start[nextOutputRow]) else { return }
        let byteCount = source.width * channels
        let bytes: UnsafePointer<UInt8>
        if row.count >= byteCount, let base = row.baseAddress {
            bytes = base.assumingMemoryBound(to: UInt8.self)
        } else {
            scratch.initialize(repeating: 0, count: byteCount)
            if let base = row.baseAddress, row.count > 0 {
                scratch.update(from: base.assumingMemoryBound(to: UInt8.self), count: min(row.count, byteCount))
            }
            bytes = UnsafePointer(scratch)
        }
        let slot = ring + (y % ringRows) * rowElements
        if channels == 4 {
            HorizontalPass.filter4(bytes, into: slot, table: horizontal)
        } else {
            HorizontalPass.filter1(bytes, into: slot, table: horizontal)
        }
        lastFilteredRow = y
        emitReadyRows(through: y, table: vertical)
    }

    /// The finished output. When fewer rows came than the source height, the last row is
    /// repeated (as the edge is clamped); with no rows at all the output stays blank.
    func finish() -> Bitmap {
        if let vertical, lastFilteredRow >= 0 {
            let last = ring + (lastFilteredRow % ringRows) * rowElements
            while nextSourceRow < source.height && nextOutputRow < output.height {
                let y = nextSourceRow
                nextSourceRow += 1
                let slot = ring + (y % ringRows) * rowElements
                if slot != last { slot.update(from: last, count: rowElements) }
                emitReadyRows(through: y, table: vertical)
            }
        }
        nextSourceRow = source.height
        return bitmap
    }

    /// Makes every output row whose taps end at or before source row `y`.
    private func emitReadyRows(through y: Int, table: WeightTable) {
        while nextOutputRow < output.height {
            let oy = nextOutputRow
            let first = Int(table.start[oy]), taps = Int(table.count[oy])
            guard first + taps - 1 <= y else { return }
            for k in 0..<taps {
                tapRows[k] = UnsafePointer(ring + ((first + k) % ringRows) * rowElements)
            }
            VerticalPass.accumulate(
                rows: tapRows, weights: table.weights + Int(table.offset[oy]), taps: taps,
                into: accumulator, count: rowElements)
            let rowBytes = output.width * channels
            bitmap.withUnsafeMutableBytes { buffer in
                let destination = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + oy * rowBytes
                if channels == 4 {
                    VerticalPass.store4(accumulator, pixels: output.width, to: destination, premultiplied: format.hasAlpha)
                } else {
                    VerticalPass.store1(accumulator, pixels: output.width, to: destination)
                }
            }
            nextOutputRow += 1
        }
    }
}
