#if canImport(CTIFF)
import CTIFF
import Foundation

/// Decodes TIFF with libtiff: the first page (directory) of a file, through libtiff's RGBA
/// interface (grey, palette, RGB, YCbCr, CMYK, CIE L*a*b*; 1 to 16 bits; strips or tiles;
/// every compression libtiff was built with).
///
/// Output is premultiplied ``PixelFormat/rgba8`` when the page has an extra (alpha) sample,
/// ``PixelFormat/rgbx8`` otherwise. Size: libtiff decodes a strip or a tile at a time; the rows
/// of one band of strips or tiles go into the ``RowSink`` for `context.outputSize`, so the
/// full-size image is never held (a single-strip file is read in bands of at most 16 MB).
///
/// Orientation: the Orientation tag (274) of the first directory, read by the registry
/// (``EXIFReader`` reads a TIFF file as the TIFF structure it is); pixels come out as stored.
/// Colour: an embedded RGB ICC profile (InterColorProfile) tags the pixels, which the registry's
/// ``ColorManagement`` then converts like a JPEG's or a PNG's; without one (or with a profile
/// of another colour model: grey and CMYK come out of libtiff's RGBA reader already as RGB),
/// samples are sRGB.
///
/// libtiff's messages never reach standard error: each file has its own handlers, whose first
/// error names the cause of the ``ImageError``.
struct TIFFDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// TIFF.
    var formats: Set<ImageFormat> { [.tiff] }

    /// The largest band of rows decoded at once when a strip is larger.
    private static let maxBandBytes = 16 << 20

    /// The Orientation tag of the first directory.
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        EXIFReader.orientation(inTIFF: data)
    }

    /// Reads the first directory: size and alpha; no strip is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        try Self.withReader(data, maxAllocation: 64 << 20) { reader throws(ImageError) in
            let size = try reader.storedSize()
            return ImageHeader(format: .tiff, width: size.width, height: size.height, hasAlpha: reader.hasAlpha)
        }
    }

    /// Decodes the first page at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let limits = context.options.limits
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .tiff, reason: "the requested output size \(output) is empty")
        }
        // One strip of the largest image the limits allow: 16-bit RGBA, 8 bytes a pixel.
        let (stripBytes, overflow) = limits.maxPixels.multipliedReportingOverflow(by: 8)
        let maxAllocation = max(64 << 20, overflow ? Int.max : stripBytes)
        return try Self.withReader(data, maxAllocation: maxAllocation) { reader throws(ImageError) in
            let source = try reader.storedSize()
            try limits.check(width: source.width, height: source.height, format: .tiff)
            let format: PixelFormat = reader.hasAlpha ? .rgba8 : .rgbx8
            let rowBytes = source.width * 4
            let bandRows = Self.bandRows(block: reader.rowsPerBlock, rowBytes: rowBytes, height: source.height)
            try reader.beginRGBA()

            let sink = makeRowSink(source: source, output: output, format: format, kernel: context.options.kernel)
            let band = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * bandRows, alignment: 16)
            defer { band.deallocate() }
            var y = 0
            while y < source.height {
                if Task.isCancelled { throw .cancelled }
                let count = min(bandRows, source.height - y)
                try reader.readRows(into: band, from: y, count: count)
                for row in 0..<count {
                    sink.append(row: UnsafeRawBufferPointer(rebasing: band[(row * rowBytes)..<((row + 1) * rowBytes)]))
                }
                y += count
            }
            var bitmap = sink.finish()
            if let profile = reader.iccProfile, profile.colorModel == .rgb { bitmap.colorSpace = .icc(profile) }
            return bitmap
        }
    }

    /// Rows per band: whole strips or tiles (each is decoded once), within ``maxBandBytes``.
    static func bandRows(block: Int, rowBytes: Int, height: Int) -> Int {
        let cap = max(1, maxBandBytes / max(rowBytes, 1))
        let rows = block <= cap ? max(block, 1) * max(1, cap / max(block, 1)) : cap
        return max(1, min(rows, height))
    }

    private static func withReader<T>(
        _ data: Data, maxAllocation: Int,
        _ body: (TIFFReader) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        guard data.count >= 8 else { throw .truncated(format: .tiff, received: data.count, expected: nil) }
        let result: Result<T, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try TIFFReader(bytes: bytes, maxAllocation: maxAllocation)
                return .success(try body(reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
#endif
