#if canImport(CTIFF)
import CTIFF
import Foundation

/// One TIFF file opened by libtiff from memory, at its first directory (the first page).
///
/// Opening reads the header and the first directory only; no pixel is decoded until
/// ``readRows(into:from:count:)``. Every libtiff message goes to the file's handlers
/// (``TIFFMemoryFile``): none is printed, and a failure becomes an ``ImageError`` naming
/// libtiff's first error.
final class TIFFReader {
    private let tiff: OpaquePointer
    private let file: TIFFMemoryFile
    /// libtiff's RGBA reader state, once ``beginRGBA()`` has run.
    private var rgba: UnsafeMutablePointer<TIFFRGBAImage>?

    /// libtiff's own handlers print to standard error: cleared once, for the process, before
    /// the first file is opened (every file also has handlers of its own, which come first).
    private static let quietGlobalHandlers: Void = {
        _ = TIFFSetErrorHandler(nil)
        _ = TIFFSetWarningHandler(nil)
    }()

    /// The file name libtiff is given (it starts its messages with it).
    static let clientName = "iris-tiff-in-memory"

    /// Opens `bytes` (which must outlive the reader). `maxAllocation` bounds any one buffer
    /// libtiff allocates for this file (directories, strips, tiles).
    init(bytes: UnsafeRawBufferPointer, maxAllocation: Int) throws(ImageError) {
        Self.quietGlobalHandlers
        let file = TIFFMemoryFile(bytes: bytes)
        guard let options = TIFFOpenOptionsAlloc() else {
            throw .decodingFailed(format: .tiff, reason: "libtiff could not allocate its options")
        }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetErrorHandlerExtR(options, TIFFMemoryFile.error, file.handle)
        TIFFOpenOptionsSetWarningHandlerExtR(options, TIFFMemoryFile.warning, file.handle)
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(max(1, maxAllocation)))
        // "r": read; "m" is left on, so libtiff reads strips through the map procedure (no copy).
        guard
            let tiff = TIFFClientOpenExt(
                Self.clientName, "r", file.handle, TIFFMemoryFile.read, TIFFMemoryFile.write,
                TIFFMemoryFile.seek, TIFFMemoryFile.close, TIFFMemoryFile.size,
                TIFFMemoryFile.map, TIFFMemoryFile.unmap, options)
        else {
            throw Self.failure(file.firstError, byteCount: bytes.count, doing: "could not read the header")
        }
        self.tiff = tiff
        self.file = file
    }

    deinit {
        if let rgba {
            TIFFRGBAImageEnd(rgba)
            rgba.deallocate()
        }
        TIFFClose(tiff)
    }

    // MARK: - The first directory

    /// The stored size, from the first directory's ImageWidth and ImageLength.
    func storedSize() throws(ImageError) -> PixelSize {
        guard let width = field(UInt32(TIFFTAG_IMAGEWIDTH)), let height = field(UInt32(TIFFTAG_IMAGELENGTH)) else {
            throw Self.failure(file.firstError, byteCount: file.bytes.count, doing: "has no image size")
        }
        guard width > 0, height > 0, width <= UInt32(Int32.max), height <= UInt32(Int32.max) else {
            throw .invalidDimensions(format: .tiff, width: Int(width), height: Int(height))
        }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Whether the first directory has an extra sample (alpha, associated or not).
    var hasAlpha: Bool {
        var count: UInt16 = 0
        var samples: UnsafeMutablePointer<UInt16>?
        let found = withUnsafeMutablePointer(to: &count) { count in
            withUnsafeMutablePointer(to: &samples) { samples in
                withVaList([count, samples]) { TIFFVGetFieldDefaulted(tiff, UInt32(TIFFTAG_EXTRASAMPLES), $0) }
            }
        }
        return found == 1 && count > 0
    }

    /// Rows a strip or a tile holds: the band the RGBA reader decodes at once.
    var rowsPerBlock: Int {
        let tag = TIFFIsTiled(tiff) != 0 ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP
        var rows: UInt32 = 0
        let found = withUnsafeMutablePointer(to: &rows) { rows in
            withVaList([rows]) { TIFFVGetFieldDefaulted(tiff, UInt32(tag), $0) }
        }
        return found == 1 ? Int(max(1, min(rows, UInt32(Int32.max)))) : 1
    }

    /// The ICC profile of the first directory (tag 34675, InterColorProfile), if it has a valid one.
    var iccProfile: ICCProfile? {
        var count: UInt32 = 0
        var bytes: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { count in
            withUnsafeMutablePointer(to: &bytes) { bytes in
                withVaList([count, bytes]) { TIFFVGetField(tiff, UInt32(TIFFTAG_ICCPROFILE), $0) }
            }
        }
        guard found == 1, let bytes, count > 0 else { return nil }
        return ICCProfile(data: Data(bytes: bytes, count: Int(count)))
    }

    /// A 32-bit field of the first directory, if it is set.
    private func field(_ tag: UInt32) -> UInt32? {
        var value: UInt32 = 0
        let found = withUnsafeMutablePointer(to: &value) { value in
            withVaList([value]) { TIFFVGetField(tiff, tag, $0) }
        }
        return found == 1 ? value : nil
    }

    // MARK: - Pixels

    /// Prepares libtiff's RGBA reader, which converts every photometric interpretation it
    /// knows (grey, palette, RGB, YCbCr, CMYK, CIE L*a*b*, LogLuv; 1–16 bits) to premultiplied
    /// RGBA; rows come out as stored (the orientation tag is the registry's to apply).
    func beginRGBA() throws(ImageError) {
        guard rgba == nil else { return }
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &message) == 1 else {
            throw .decodingFailed(format: .tiff, reason: "libtiff cannot convert this image to RGBA: \(Self.text(message))")
        }
        let image = UnsafeMutablePointer<TIFFRGBAImage>.allocate(capacity: 1)
        image.initialize(to: TIFFRGBAImage())
        guard TIFFRGBAImageBegin(image, tiff, 1, &message) == 1 else {
            image.deallocate()
            throw .decodingFailed(format: .tiff, reason: "libtiff cannot convert this image to RGBA: \(Self.text(message))")
        }
        // Asking for the file's own orientation makes libtiff flip nothing.
        image.pointee.req_orientation = image.pointee.orientation
        rgba = image
    }

    /// Reads `count` rows from row `first` into `buffer` (`width × count` pixels, 4 bytes each,
    /// R, G, B, A in memory order, alpha premultiplied).
    func readRows(into buffer: UnsafeMutableRawBufferPointer, from first: Int, count: Int) throws(ImageError) {
        guard let rgba else { throw .decodingFailed(format: .tiff, reason: "the RGBA reader was not started") }
        rgba.pointee.row_offset = Int32(first)
        rgba.pointee.col_offset = 0
        let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt32.self)
        guard TIFFRGBAImageGet(rgba, pixels, rgba.pointee.width, UInt32(count)) == 1 else {
            throw Self.failure(file.firstError, byteCount: file.bytes.count, doing: "could not decode rows \(first)–\(first + count - 1)")
        }
        #if _endian(big)
        // libtiff packs A, B, G, R into one word: R is the low byte, first in memory only on little-endian.
        for i in 0..<(buffer.count / 4) { pixels[i] = pixels[i].byteSwapped }
        #endif
    }

    // MARK: - Errors

    /// The error for libtiff's `message`: a truncation when libtiff read past the end.
    private static func failure(_ message: String?, byteCount: Int, doing what: String) -> ImageError {
        guard let message else { return .decodingFailed(format: .tiff, reason: "libtiff \(what)") }
        let lowered = message.lowercased()
        if lowered.contains("read error") || lowered.contains("past end") || lowered.contains("cannot read")
            || lowered.contains("not enough data") || lowered.contains("premature end") || lowered.contains("eof")
        {
            return .truncated(format: .tiff, received: byteCount, expected: nil)
        }
        return .decodingFailed(format: .tiff, reason: "libtiff \(what): \(message)")
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
