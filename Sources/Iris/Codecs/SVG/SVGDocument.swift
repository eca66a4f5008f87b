#if canImport(CRsvg)
import CGdkPixbuf
import CRsvg
import Foundation

/// One SVG document parsed by librsvg from memory, rendered with cairo at any size.
///
/// Loaded with no base file or URL, so librsvg resolves no reference to anything outside the
/// document (`<image href>`, `<use href>`, CSS `@import`, `url()` of another file, `http:`,
/// `file:`): each is left out of the rendering, never read. librsvg's own limits bound the
/// work of a hostile document: an XML entity that expands into itself ("billion laughs") fails
/// to parse, and a document referencing more than its limit of elements (`<use>` of `<use>`...)
/// fails to render; both become an ``ImageError``. librsvg reports failures as `GError`s, never
/// by printing or stopping the process.
final class SVGDocument {
    private let handle: OpaquePointer

    /// The size the document declares, in pixels (see ``intrinsicSize``).
    let intrinsicSize: PixelSize
    /// ``intrinsicSize`` before it is rounded up to whole pixels.
    private let exactSize: (width: Double, height: Double)

    /// The largest side cairo draws (its image surfaces are at most 32767 pixels a side).
    static let maxSide = 32767

    /// Parses `data`.
    init(_ data: Data) throws(ImageError) {
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBytes { bytes in
            rsvg_handle_new_from_data(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), &error)
        }
        guard let handle else {
            let failure = Self.failure(error, byteCount: data.count, doing: "could not parse the document")
            // XML that does not parse and never closes its root was cut, whatever libxml2 says.
            if case .decodingFailed = failure, data.range(of: Data("</svg".utf8)) == nil {
                throw .truncated(format: .svg, received: data.count, expected: nil)
            }
            throw failure
        }
        self.handle = handle
        guard let size = Self.naturalSize(handle) else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw .decodingFailed(format: .svg, reason: "the document has no size: no width and height, no viewBox, nothing drawn")
        }
        exactSize = size
        let width = size.width.rounded(.up), height = size.height.rounded(.up)
        guard width.isFinite, height.isFinite, width >= 1, height >= 1, width <= Double(Int32.max), height <= Double(Int32.max)
        else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw .invalidDimensions(
                format: .svg, width: width.isFinite ? Int(max(min(width, Double(Int32.max)), 0)) : 0,
                height: height.isFinite ? Int(max(min(height, Double(Int32.max)), 0)) : 0)
        }
        intrinsicSize = PixelSize(width: Int(width), height: Int(height))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// What libvips (imgproxy's renderer) takes for the document's size: its `width` and
    /// `height` in pixels when they are absolute lengths; else its `viewBox`'s size; else the
    /// extent of what it draws (its ink, from the origin) in user units. `nil` when there is none.
    private static func naturalSize(_ handle: OpaquePointer) -> (width: Double, height: Double)? {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, width > 0, height > 0 {
            return (width, height)
        }
        var hasViewBox: Int32 = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 { return (viewBox.width, viewBox.height) }
        // No size at all: the document's own units, 1:1, over a viewport that clips nothing.
        var viewport = RsvgRectangle(x: 0, y: 0, width: 1, height: 1)
        var ink = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_get_geometry_for_layer(handle, nil, &viewport, &ink, nil, &error) != 0 else {
            if let error { g_error_free(error) }
            return nil
        }
        let right = ink.x + ink.width, bottom = ink.y + ink.height
        return right > 0 && bottom > 0 ? (right, bottom) : nil
    }

    /// Renders the whole document scaled to exactly `size` (the vector drawn at that size, never
    /// a larger raster shrunk), as premultiplied ``PixelFormat/rgba8``.
    func render(at size: PixelSize) throws(ImageError) -> Bitmap {
        guard size.width > 0, size.height > 0, size.width <= Self.maxSide, size.height <= Self.maxSide else {
            throw .decodingFailed(
                format: .svg, reason: "\(size.width)×\(size.height) is not a size cairo draws (1 to \(Self.maxSide) a side)")
        }
        var failure: ImageError?
        var bitmap = Bitmap(width: size.width, height: size.height, format: .rgba8) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            failure = draw(into: buffer, size: size)
        }
        if let failure { throw failure }
        bitmap.isPremultiplied = true
        return bitmap
    }

    /// Draws into `buffer` (`size`, 4 bytes a pixel, zeroed) and turns cairo's pixels into RGBA.
    private func draw(into buffer: UnsafeMutableRawBufferPointer, size: PixelSize) -> ImageError? {
        let stride = size.width * 4
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let surface = cairo_image_surface_create_for_data(
                base, CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height), Int32(stride))
        else { return .decodingFailed(format: .svg, reason: "cairo could not make a surface") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface) else {
            return .decodingFailed(format: .svg, reason: "cairo could not make a \(size.width)×\(size.height) surface")
        }
        defer { cairo_destroy(cairo) }
        // The document laid out at its own size, then scaled to the output as it is drawn.
        cairo_scale(cairo, Double(size.width) / exactSize.width, Double(size.height) / exactSize.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: exactSize.width, height: exactSize.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, cairo, &viewport, &error) != 0 else {
            return Self.failure(error, byteCount: 0, doing: "could not render the document")
        }
        cairo_surface_flush(surface)
        // CAIRO_FORMAT_ARGB32 is premultiplied 0xAARRGGBB in native byte order.
        let words = UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt32.self)
        for index in 0..<(size.width * size.height) {
            let argb = words[index]
            let rgba = (argb >> 16 & 0xFF) | (argb & 0xFF00) | (argb & 0xFF) << 16 | (argb & 0xFF00_0000)
            words[index] = UInt32(littleEndian: rgba)
        }
        return nil
    }

    /// The error for librsvg's `error` (freed here): a truncation when the XML ended early.
    private static func failure(_ error: UnsafeMutablePointer<GError>?, byteCount: Int, doing what: String) -> ImageError {
        guard let error else { return .decodingFailed(format: .svg, reason: "librsvg \(what)") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
        if message.lowercased().contains("premature end") {
            return .truncated(format: .svg, received: byteCount, expected: nil)
        }
        return .decodingFailed(format: .svg, reason: "librsvg \(what): \(message)")
    }
}
#endif
