#if canImport(CAVIF)
import CAVIF
import Foundation

/// One libavif decoder over bytes the caller keeps alive: the parsed file (no pixels until
/// ``advance(to:)``), and the conversion of a decoded frame to Iris's pixels.
///
/// libavif reads the boxes in ``init(bytes:)``; its own size cap (16384×16384 pixels) refuses
/// larger claims there, which ``AVIFSpatialExtent`` turns into a size Iris's limits can judge.
final class AVIFReader {
    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let byteCount: Int

    /// libavif's default cap on an image's pixels (its `AVIF_DEFAULT_IMAGE_SIZE_LIMIT`).
    static let librarySizeLimit = 16384 * 16384

    /// Parses `bytes` (which must outlive the reader): sizes, alpha, frame count.
    ///
    /// `maxPixels` lowers libavif's own pixel cap, which covers every image libavif makes for
    /// this file (grid cells, the alpha image, frames), not only the size the header shows.
    init(bytes: UnsafeRawBufferPointer, maxPixels: Int? = nil) throws(ImageError) {
        guard let decoder = avifDecoderCreate() else {
            throw .decodingFailed(format: .avif, reason: "libavif could not make a decoder")
        }
        self.decoder = decoder
        byteCount = bytes.count
        decoder.pointee.maxThreads = 1
        if let maxPixels {
            decoder.pointee.imageSizeLimit = UInt32(max(1, min(maxPixels, Self.librarySizeLimit)))
        }
        // Browsers accept files that miss a property the strict rules require (`pixi`, a
        // `clap` of odd values): so does Iris.
        decoder.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        var result = avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
        // On a throw from here, `deinit` runs and destroys the decoder.
        guard result == AVIF_RESULT_OK else { throw error(result) }
    }

    deinit { avifDecoderDestroy(decoder) }

    /// The image libavif holds: after parsing its size and format, after a decode its planes.
    private var image: UnsafeMutablePointer<avifImage> { decoder.pointee.image }

    /// Stored size of the frames (before `irot`/`imir`).
    var storedSize: PixelSize { PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height)) }

    /// Whether the image (or sequence) has an alpha plane.
    var hasAlpha: Bool { decoder.pointee.alphaPresent != 0 }

    /// Frames: 1 for a still image, more for an image sequence.
    var frameCount: Int { Int(decoder.pointee.imageCount) }

    /// How the stored pixels must be turned to be shown, from the primary item's `irot` and
    /// `imir` properties (libavif reports them; unlike libheif it does not apply them).
    var orientation: Orientation {
        let flags = image.pointee.transformFlags
        let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.pointee.irot.angle) % 4 : 0
        let mirror: Int? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.pointee.imir.mode) : nil
        return Self.orientation(anticlockwiseQuarterTurns: angle, mirror: mirror)
    }

    /// The EXIF orientation that shows what HEIF's `irot` (quarter turns anticlockwise) followed
    /// by `imir` (0: top and bottom exchanged, 1: left and right) show.
    static func orientation(anticlockwiseQuarterTurns turns: Int, mirror: Int?) -> Orientation {
        switch (turns, mirror) {
        case (0, nil): .up
        case (0, 1): .upMirrored
        case (0, _): .downMirrored
        case (1, nil): .left
        case (1, 1): .rightMirrored
        case (1, _): .leftMirrored
        case (2, nil): .down
        case (2, 1): .downMirrored
        case (2, _): .upMirrored
        case (_, nil): .right
        case (_, 1): .leftMirrored
        case (_, _): .rightMirrored
        }
    }

    /// How long frame `index` is shown, in seconds (0 when libavif cannot tell).
    func duration(at index: Int) -> Double {
        var timing = avifImageTiming()
        guard avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK else { return 0 }
        return timing.duration
    }

    /// The nearest key frame at or before `index`.
    func keyFrame(atOrBefore index: Int) -> Int { Int(avifDecoderNearestKeyframe(decoder, UInt32(index))) }

    /// Decodes frame `index` (libavif goes from the nearest key frame when it must).
    func decodeFrame(_ index: Int) throws(ImageError) {
        let result = avifDecoderNthImage(decoder, UInt32(index))
        guard result == AVIF_RESULT_OK else { throw error(result) }
        let decoded = storedSize
        guard decoded.width > 0, decoded.height > 0 else {
            throw .invalidDimensions(format: .avif, width: decoded.width, height: decoded.height)
        }
    }

    /// Rows of the view converted to RGB per step: the output of one step is held at a time.
    static let stripRows = 64
    /// Rows converted above and below each strip, so that chroma upsampling at the strip's
    /// edges sees the same neighbours as a whole-image conversion (4:2:0 needs one chroma row).
    static let stripMargin = 4

    /// The decoded frame converted to 8-bit RGBA (premultiplied by libavif when it has alpha)
    /// and resampled to `output` (stored orientation), a strip of rows at a time: the full-size
    /// RGB image is never held.
    func bitmap(output: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> Bitmap {
        let source = storedSize
        let hasAlpha = image.pointee.alphaPlane != nil
        let sink = makeRowSink(source: source, output: output, format: hasAlpha ? .rgba8 : .rgbx8, kernel: kernel)
        let rowBytes = source.width * 4
        let bufferRows = min(source.height, Self.stripRows + 2 * Self.stripMargin)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * bufferRows, alignment: 16)
        defer { buffer.deallocate() }
        guard let view = avifImageCreateEmpty() else {
            throw .decodingFailed(format: .avif, reason: "libavif could not make an image view")
        }
        defer { avifImageDestroy(view) }
        var top = 0
        while top < source.height {
            let rows = min(Self.stripRows, source.height - top)
            let viewTop = max(0, top - Self.stripMargin)
            let viewBottom = min(source.height, top + rows + Self.stripMargin)
            var rect = avifCropRect(x: 0, y: UInt32(viewTop), width: UInt32(source.width), height: UInt32(viewBottom - viewTop))
            var result = avifImageSetViewRect(view, image, &rect)
            guard result == AVIF_RESULT_OK else { throw error(result) }
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, view)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.alphaPremultiplied = hasAlpha ? AVIF_TRUE : AVIF_FALSE
            rgb.pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(rowBytes)
            result = avifImageYUVToRGB(view, &rgb)
            guard result == AVIF_RESULT_OK else { throw error(result) }
            for row in (top - viewTop)..<(top - viewTop + rows) {
                sink.append(row: UnsafeRawBufferPointer(rebasing: buffer[(row * rowBytes)..<((row + 1) * rowBytes)]))
            }
            top += rows
        }
        return sink.finish()
    }

    /// The ``ImageError`` for a libavif result, with libavif's diagnostic when it has one.
    func error(_ result: avifResult) -> ImageError {
        if result == AVIF_RESULT_TRUNCATED_DATA {
            return .truncated(format: .avif, received: byteCount, expected: nil)
        }
        let name = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .decodingFailed(format: .avif, reason: detail.isEmpty ? "libavif: \(name)" : "libavif: \(name): \(detail)")
    }
}
#endif
