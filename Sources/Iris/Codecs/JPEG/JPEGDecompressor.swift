#if canImport(CJPEG)
import CIrisShims
import Foundation

/// One libjpeg decompression over bytes that must outlive it; a thin owner of the C shim's
/// context that turns its status codes into ``ImageError``s.
final class JPEGDecompressor {
    /// What the header says, in Swift terms.
    struct Header {
        var size: PixelSize
        var components: Int
        /// `IRIS_JPEG_CS_*`.
        var colorSpace: Int32
        var sawAdobeMarker: Bool
        var isProgressive: Bool
    }

    private let handle: OpaquePointer
    private let byteCount: Int

    /// Opens `bytes`. `maxScans` bounds the scans of a progressive file; `maxMemory` bounds
    /// libjpeg's working memory (0: unbounded).
    init(bytes: UnsafeRawBufferPointer, maxScans: Int, maxMemory: Int) throws(ImageError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .emptyData }
        guard
            let handle = iris_jpeg_decoder_create(
                base.assumingMemoryBound(to: UInt8.self), bytes.count,
                Int32(clamping: maxScans), maxMemory)
        else {
            throw .decodingFailed(format: .jpeg, reason: "out of memory")
        }
        self.handle = handle
        self.byteCount = bytes.count
    }

    deinit { iris_jpeg_decoder_destroy(handle) }

    /// Reads the markers up to the first scan.
    func readHeader() throws(ImageError) -> Header {
        var header = iris_jpeg_header()
        try check(iris_jpeg_decoder_read_header(handle, &header))
        return Header(
            size: PixelSize(width: Int(header.width), height: Int(header.height)),
            components: Int(header.num_components), colorSpace: header.color_space,
            sawAdobeMarker: header.saw_adobe_marker != 0, isProgressive: header.progressive != 0)
    }

    /// The embedded ICC profile (APP2 segments), after ``readHeader()``; `nil` when there is
    /// none or its bytes are not an ICC profile.
    func iccProfile() throws(ImageError) -> ICCProfile? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        try check(iris_jpeg_decoder_icc_profile(handle, &bytes, &size))
        guard let bytes else { return nil }
        defer { iris_jpeg_free(bytes) }
        return ICCProfile(data: Data(bytes: bytes, count: Int(size)))
    }

    /// Whether a decode at 1/8 of a progressive file leaves out the scans it does not need (on
    /// unless turned off here, before ``start(scale:colorSpace:)``): components whose DCT is
    /// scaled to 1×1 are made from their DC coefficients alone, so their AC scans go unread and
    /// only their DC coefficients are kept. The pixels are the same either way.
    func readNeededScansOnly(_ enabled: Bool) {
        iris_jpeg_decoder_read_needed_scans_only(handle, enabled ? 1 : 0)
    }

    /// The scans ``start(scale:colorSpace:)`` left out.
    var skippedScans: Int { Int(iris_jpeg_decoder_skipped_scans(handle)) }

    /// The components ``start(scale:colorSpace:)`` decodes from their DC coefficients alone.
    var dcOnlyComponents: Int { Int(iris_jpeg_decoder_dc_only_components(handle)) }

    /// Starts decoding at `scale`/8 into `colorSpace` (`IRIS_JPEG_CS_GRAY`, `_RGBX`, `_CMYK`);
    /// returns the scaled size and bytes per pixel.
    func start(scale: Int, colorSpace: Int32) throws(ImageError) -> (size: PixelSize, bytesPerPixel: Int) {
        var width: Int32 = 0, height: Int32 = 0, components: Int32 = 0
        try check(iris_jpeg_decoder_start(handle, Int32(scale), colorSpace, &width, &height, &components))
        return (PixelSize(width: Int(width), height: Int(height)), Int(components))
    }

    /// Reads up to `maxRows` rows into `buffer`, `stride` bytes apart; returns how many.
    /// With `acceptsTruncation`, data that ran out is not an error: the rows libjpeg made from
    /// what there was (the scans so far of a progressive image, grey below) are returned.
    func readRows(
        into buffer: UnsafeMutableRawBufferPointer, stride: Int, maxRows: Int,
        acceptsTruncation: Bool = false
    ) throws(ImageError) -> Int {
        guard let base = buffer.baseAddress, buffer.count >= stride * maxRows else { return 0 }
        var rows: Int32 = 0
        let status = iris_jpeg_decoder_read_rows(
            handle, base.assumingMemoryBound(to: UInt8.self), stride,
            Int32(maxRows), &rows)
        if !(acceptsTruncation && status == IRIS_JPEG_TRUNCATED && rows > 0) { try check(status) }
        return Int(rows)
    }

    private func check(_ status: Int32) throws(ImageError) {
        switch status {
        case IRIS_JPEG_OK:
            return
        case IRIS_JPEG_TRUNCATED:
            throw .truncated(format: .jpeg, received: byteCount, expected: nil)
        default:
            let message = String(cString: iris_jpeg_decoder_message(handle))
            throw .decodingFailed(format: .jpeg, reason: message.isEmpty ? "libjpeg failed" : message)
        }
    }
}
#endif
