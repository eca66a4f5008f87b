#if canImport(CPNG)
import CIrisShims
import Foundation

/// One libpng read over a borrowed buffer, through the setjmp-guarded C shim.
///
/// Made only by ``withReader(_:_:)``, which keeps the input bytes alive for the reader's life.
final class PNGReader {
    private let handle: OpaquePointer

    private init?(_ bytes: UnsafeRawBufferPointer) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let handle = iris_png_reader_create(base, bytes.count) else { return nil }
        self.handle = handle
    }

    deinit { iris_png_reader_destroy(handle) }

    /// Runs `body` with a reader over `data`; the reader is freed when `body` returns or throws.
    static func withReader<R>(_ data: Data, _ body: (PNGReader) throws(ImageError) -> R) throws(ImageError) -> R {
        guard !data.isEmpty else { throw .emptyData }
        let result: Result<R, ImageError> = data.withUnsafeBytes { bytes in
            guard let reader = PNGReader(bytes) else {
                return .failure(.decodingFailed(format: .png, reason: "out of memory creating the libpng reader"))
            }
            do throws(ImageError) {
                return .success(try body(reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Input bytes handed to libpng so far.
    var consumedBytes: Int { iris_png_reader_consumed(handle) }

    /// Reads the signature and the chunks up to the first IDAT.
    func readInfo() throws(ImageError) -> iris_png_info {
        var info = iris_png_info()
        try check(iris_png_read_info(handle, &info))
        return info
    }

    /// What the colour chunks (iCCP, sRGB, gAMA, cHRM) say, after ``readInfo()``.
    func color() throws(ImageError) -> iris_png_color {
        var color = iris_png_color()
        try check(iris_png_get_color(handle, &color))
        return color
    }

    /// Inflates the image data at once with libdeflate when its scanlines (with a joined copy of
    /// the IDAT chunks when there are several) take at most `budget` bytes; libpng then reads
    /// them back instead of inflating the file's data itself. Returns `false` when libpng streams
    /// as before: over budget, or anything wrong with the IDAT chunks or their data, which
    /// libpng then reports as it always has. Only data with at most `maxInput` bytes from the
    /// first IDAT to the end is read at once. Call after ``readInfo()``, before ``setOutput(_:)``.
    @discardableResult
    func inflateWhole(budget: Int, maxInput: Int) -> Bool {
        iris_png_inflate_whole(handle, max(budget, 0), max(maxInput, 0)) != 0
    }

    /// Sets the transforms for `output`; returns the bytes of one output row and the number of
    /// interlace passes (1, or 7 for Adam7).
    func setOutput(_ output: IrisPNGOutput) throws(ImageError) -> (rowBytes: Int, passes: Int) {
        var rowBytes = 0
        var passes: Int32 = 0
        try check(iris_png_set_output(handle, output, &rowBytes, &passes))
        return (rowBytes, Int(passes))
    }

    /// Reads the next `count` rows of a non-interlaced image, `stride` bytes apart.
    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(ImageError) {
        precondition(count >= 0 && buffer.count >= stride * count, "row buffer too small")
        guard count > 0 else { return }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        try check(iris_png_read_rows(handle, base, stride, UInt32(count)))
    }

    /// Reads every pass of the whole image, rows `stride` bytes apart.
    func readImage(into buffer: UnsafeMutableRawBufferPointer, stride: Int, height: Int) throws(ImageError) {
        precondition(buffer.count >= stride * height, "image buffer too small")
        guard height > 0 else { return }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        try check(iris_png_read_image(handle, base, stride))
    }

    private func check(_ status: IrisPNGStatus) throws(ImageError) {
        switch status {
        case IRIS_PNG_OK:
            return
        case IRIS_PNG_TRUNCATED:
            throw .truncated(format: .png, received: iris_png_reader_consumed(handle), expected: nil)
        default:
            let message = String(cString: iris_png_reader_message(handle))
            throw .decodingFailed(format: .png, reason: message.isEmpty ? "libpng reported an error" : message)
        }
    }
}
#endif
