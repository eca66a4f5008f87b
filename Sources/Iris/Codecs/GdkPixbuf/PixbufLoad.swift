#if canImport(CGdkPixbuf)
import CGdkPixbuf
import Foundation

/// One image decoded whole by gdk-pixbuf's loader for one format (`bmp`, `ico`): only that
/// format's module reads the bytes, whatever they hold.
///
/// gdk-pixbuf reports failures as `GError`s, never by printing or stopping the process: each
/// becomes an ``ImageError`` that names its message.
final class PixbufLoad {
    /// The decoded image, owned by the loader.
    private let pixbuf: OpaquePointer
    private let loader: OpaquePointer

    /// Width and height of the decoded image.
    let size: PixelSize
    /// Whether any pixel is not opaque. gdk-pixbuf gives an alpha sample to every RLE and
    /// palette BMP (a skipped pixel is transparent); an image all opaque is decoded without.
    let hasAlpha: Bool
    /// Whether gdk-pixbuf's pixels have an alpha sample (straight, not premultiplied).
    private let hasAlphaSample: Bool

    /// Feeds `data` to gdk-pixbuf's loader for `type`, a megabyte at a time (checking for
    /// cancellation in between), and closes it.
    init(_ data: Data, type: String, format: ImageFormat) throws(ImageError) {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(type, &error) else {
            throw Self.failure(error, format: format, byteCount: data.count, doing: "has no \(type) loader")
        }
        self.loader = loader
        var written = 0
        var failed: ImageError?
        while written < data.count, failed == nil {
            if Task.isCancelled {
                failed = .cancelled
                break
            }
            let count = min(1 << 20, data.count - written)
            let ok = data[(data.startIndex + written)...].prefix(count).withUnsafeBytes { chunk in
                gdk_pixbuf_loader_write(loader, chunk.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(chunk.count), &error)
            }
            if ok == 0 { failed = Self.failure(error, format: format, byteCount: data.count, doing: "could not read the file") }
            written += count
        }
        // Closed even after a failure (gdk-pixbuf expects it); its error then adds nothing.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        if let failed {
            if let closeError { g_error_free(closeError) }
            g_object_unref(UnsafeMutableRawPointer(loader))
            throw failed
        }
        guard closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            let failure = Self.failure(closeError, format: format, byteCount: data.count, doing: "found no image")
            g_object_unref(UnsafeMutableRawPointer(loader))
            throw failure
        }
        self.pixbuf = pixbuf
        size = PixelSize(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)))
        hasAlphaSample = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        hasAlpha = hasAlphaSample && !Self.isOpaque(pixbuf, size: size)
        let channels = gdk_pixbuf_get_n_channels(pixbuf)
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == (hasAlphaSample ? 4 : 3), size.width > 0, size.height > 0 else {
            // Every property is set: `deinit` runs and releases the loader.
            throw .decodingFailed(
                format: format, reason: "gdk-pixbuf made a \(size) image of \(channels) channels, which Iris does not read")
        }
    }

    deinit {
        // The loader owns the pixbuf.
        g_object_unref(UnsafeMutableRawPointer(loader))
    }

    /// Sends every row to `sink` as 4-byte pixels: premultiplied RGBA with alpha, else RGBX.
    func writeRows(to sink: any RowSink) throws(ImageError) {
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = UnsafeRawPointer(gdk_pixbuf_read_pixels(pixbuf)!)
        let width = size.width
        let row = UnsafeMutableRawBufferPointer.allocate(byteCount: width * 4, alignment: 16)
        defer { row.deallocate() }
        for y in 0..<size.height {
            if y % 256 == 0, Task.isCancelled { throw .cancelled }
            let source = pixels + y * stride
            if hasAlphaSample {
                row.copyMemory(from: UnsafeRawBufferPointer(start: source, count: width * 4))
                if hasAlpha { PixelConversion.premultiplyRGBA(row, pixelCount: width) }
            } else {
                for x in 0..<width {
                    row[4 * x] = source.load(fromByteOffset: 3 * x, as: UInt8.self)
                    row[4 * x + 1] = source.load(fromByteOffset: 3 * x + 1, as: UInt8.self)
                    row[4 * x + 2] = source.load(fromByteOffset: 3 * x + 2, as: UInt8.self)
                    row[4 * x + 3] = 0xFF
                }
            }
            sink.append(row: UnsafeRawBufferPointer(row))
        }
    }

    /// Whether every alpha sample of an RGBA `pixbuf` is 255.
    private static func isOpaque(_ pixbuf: OpaquePointer, size: PixelSize) -> Bool {
        guard gdk_pixbuf_get_n_channels(pixbuf) == 4, let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return false }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<size.height {
            let row = pixels + y * stride
            for x in 0..<size.width where row[4 * x + 3] != 255 { return false }
        }
        return true
    }

    /// The error for gdk-pixbuf's `error` (freed here): a truncation when it ran out of bytes.
    private static func failure(
        _ error: UnsafeMutablePointer<GError>?, format: ImageFormat, byteCount: Int,
        doing what: String
    ) -> ImageError {
        guard let error else { return .decodingFailed(format: format, reason: "gdk-pixbuf \(what)") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
        let lowered = message.lowercased()
        if lowered.contains("premature end") || lowered.contains("truncated") || lowered.contains("not enough data") {
            return .truncated(format: format, received: byteCount, expected: nil)
        }
        return .decodingFailed(format: format, reason: "gdk-pixbuf \(what): \(message)")
    }
}
#endif
