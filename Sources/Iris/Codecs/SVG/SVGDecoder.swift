#if canImport(CRsvg)
import Foundation

/// Rasterises SVG with librsvg and cairo, on Linux.
///
/// The header's size is the document's intrinsic size (``SVGDocument``: its `width` and
/// `height`, else its `viewBox`, else what it draws). A vector has no stored pixels: the
/// document is drawn straight at `context.outputSize`, and the limits judge that output (its
/// pixels here, its bytes in the registry), not the intrinsic size, which may be anything.
/// Output is premultiplied ``PixelFormat/rgba8``, sRGB (SVG's colours are).
///
/// Nothing outside the document is read: see ``SVGDocument``.
struct SVGDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// SVG.
    var formats: Set<ImageFormat> { [.svg] }

    /// Parses the document for its intrinsic size; nothing is drawn. The image is scalable: the
    /// limits apply to the size it is drawn at.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let size = try SVGDocument(data).intrinsicSize
        var header = ImageHeader(format: .svg, width: size.width, height: size.height, hasAlpha: true)
        header.isScalable = true
        return header
    }

    /// Draws the document at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .svg, reason: "the requested output size \(output) is empty")
        }
        try context.options.limits.check(width: output.width, height: output.height, format: .svg)
        if Task.isCancelled { throw .cancelled }
        return try SVGDocument(data).render(at: output)
    }
}
#endif
