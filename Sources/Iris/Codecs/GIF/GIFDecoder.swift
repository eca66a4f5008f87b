#if canImport(CGIF)
import Foundation

/// Decodes GIF with giflib: the first frame, placed on the logical screen, with transparency.
///
/// The area of the screen the first frame does not cover is transparent (as browsers show it).
/// Output is premultiplied ``PixelFormat/rgba8`` when anything is transparent,
/// ``PixelFormat/rgbx8`` otherwise.
///
/// Rows are streamed: a non-interlaced frame is read one row at a time into the ``RowSink`` for
/// `context.outputSize`; an interlaced frame's rows arrive in four passes, so its palette indices
/// (one byte per pixel) are collected first and then streamed. The full-size RGBA image is never
/// held. The header's frame count comes from walking every frame's records without decoding
/// their pixels.
struct GIFDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// GIF only.
    var formats: Set<ImageFormat> { [.gif] }

    /// The frames of an animated GIF, composed on demand (``GIFFrameReader``).
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        try GIFFrameReader.source(data, limits: limits)
    }

    /// Reads the screen size, the first frame's transparency and the number of complete frames.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        try GIFReader.withReader(data) { reader throws(ImageError) in
            let canvas = try Self.checkedCanvas(reader)
            guard let first = try reader.nextFrame() else {
                throw .decodingFailed(format: .gif, reason: "the file holds no image")
            }
            var frames = 1
            try reader.skipPixels()
            // A later frame cut short or broken ends the count: the complete frames play.
            do throws(ImageError) {
                while try reader.nextFrame() != nil {
                    try reader.skipPixels()
                    frames += 1
                }
            } catch {}
            return ImageHeader(
                format: .gif, width: canvas.width, height: canvas.height,
                hasAlpha: Self.hasTransparency(first, canvas: canvas), frameCount: frames)
        }
    }

    /// Decodes the first frame at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        try GIFReader.withReader(data) { reader throws(ImageError) in
            let canvas = try Self.checkedCanvas(reader)
            try context.options.limits.check(width: canvas.width, height: canvas.height, format: .gif)
            guard context.outputSize.width > 0, context.outputSize.height > 0 else {
                throw .decodingFailed(format: .gif, reason: "the requested output size \(context.outputSize) is empty")
            }
            guard let frame = try reader.nextFrame() else {
                throw .decodingFailed(format: .gif, reason: "the file holds no image")
            }
            let format: PixelFormat = Self.hasTransparency(frame, canvas: canvas) ? .rgba8 : .rgbx8
            let sink = makeRowSink(source: canvas, output: context.outputSize, format: format, kernel: context.options.kernel)
            // An interlaced frame's indices are held whole: its own size, not only the
            // canvas's, must be within the limits (a 60000² frame on a 16² canvas is a bomb).
            if frame.interlaced { try context.options.limits.check(width: frame.width, height: frame.height, format: .gif) }
            let rows = try GIFFrameRows(frame: frame, canvas: canvas, reader: reader)
            let row = UnsafeMutableRawBufferPointer.allocate(byteCount: canvas.width * 4, alignment: 16)
            defer { row.deallocate() }
            for y in 0..<canvas.height {
                if y % 256 == 0, Task.isCancelled { throw .cancelled }
                try rows.render(canvasRow: y, into: row)
                sink.append(row: UnsafeRawBufferPointer(row))
            }
            return sink.finish()
        }
    }

    private static func checkedCanvas(_ reader: GIFReader) throws(ImageError) -> PixelSize {
        let canvas = reader.canvas
        guard canvas.width > 0, canvas.height > 0 else {
            throw .invalidDimensions(format: .gif, width: canvas.width, height: canvas.height)
        }
        return canvas
    }

    /// Transparent pixels, or screen left uncovered by the frame.
    private static func hasTransparency(_ frame: GIFFrameInfo, canvas: PixelSize) -> Bool {
        !frame.isOpaque || frame.left > 0 || frame.top > 0
            || frame.left + frame.width < canvas.width || frame.top + frame.height < canvas.height
    }
}

/// The first frame's rows as canvas rows of premultiplied RGBA, read in stored order.
private final class GIFFrameRows {
    private let frame: GIFFrameInfo
    private let reader: GIFReader
    /// Every row's indices for an interlaced frame; one row otherwise.
    private var indices: [UInt8]
    private var nextStoredRow = 0
    private let visibleColumns: Range<Int>

    init(frame: GIFFrameInfo, canvas: PixelSize, reader: GIFReader) throws(ImageError) {
        self.frame = frame
        self.reader = reader
        let start = min(max(0, frame.left), canvas.width)
        visibleColumns = start..<max(start, min(canvas.width, frame.left + frame.width))
        if frame.interlaced {
            let (count, overflow) = frame.width.multipliedReportingOverflow(by: frame.height)
            guard !overflow else { throw .invalidDimensions(format: .gif, width: frame.width, height: frame.height) }
            indices = [UInt8](repeating: 0, count: count)
            try readInterlaced()
        } else {
            indices = [UInt8](repeating: 0, count: frame.width)
        }
    }

    /// Writes canvas row `y`: the frame's pixels where it covers the row, transparent elsewhere.
    /// Rows must be asked for top to bottom.
    func render(canvasRow y: Int, into row: UnsafeMutableRawBufferPointer) throws(ImageError) {
        row.initializeMemory(as: UInt8.self, repeating: 0)
        let frameRow = y - frame.top
        guard frameRow >= 0, frameRow < frame.height else { return }
        let offset: Int
        if frame.interlaced {
            offset = frameRow * frame.width
        } else {
            // Rows above the canvas are read and dropped.
            while nextStoredRow <= frameRow {
                try indices.withUnsafeMutableBufferPointer { buffer throws(ImageError) in try reader.readLine(into: buffer) }
                nextStoredRow += 1
            }
            offset = 0
        }
        frame.palette.withUnsafeBufferPointer { palette in
            indices.withUnsafeBufferPointer { indices in
                let output = row.bindMemory(to: UInt32.self)
                let colours = UnsafeRawPointer(palette.baseAddress!).assumingMemoryBound(to: UInt32.self)
                for x in visibleColumns {
                    output[x] = colours[Int(indices[offset + x - frame.left])]
                }
            }
        }
    }

    /// Reads the four interlace passes into their rows.
    private func readInterlaced() throws(ImageError) {
        let passes = [(start: 0, step: 8), (start: 4, step: 8), (start: 2, step: 4), (start: 1, step: 2)]
        let width = frame.width
        for pass in passes {
            for y in stride(from: pass.start, to: frame.height, by: pass.step) {
                try indices.withUnsafeMutableBufferPointer { buffer throws(ImageError) in
                    try reader.readLine(into: UnsafeMutableBufferPointer(rebasing: buffer[(y * width)..<((y + 1) * width)]))
                }
            }
        }
    }
}
#endif
