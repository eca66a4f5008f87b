#if canImport(CHEIF) || canImport(CJXL)
import Foundation

/// Feeds a full-size straight-alpha RGBA image that a library decoded (libheif, libjxl) into
/// Iris's row sink for the output size: each row is copied once into a one-row scratch,
/// premultiplied when the image has alpha, and appended, so the resampler never needs a second
/// full-size copy.
enum StraightRGBARows {
    /// Streams `source` rows of `stride` bytes at `pixels` into a sink that makes `output`.
    ///
    /// `hasAlpha` picks premultiplied ``PixelFormat/rgba8`` (alpha kept) or
    /// ``PixelFormat/rgbx8`` (alpha forced to 255, as the opaque format stores);
    /// `alreadyPremultiplied` says the library's rows are premultiplied already.
    static func bitmap(
        pixels: UnsafeRawPointer, stride: Int, source: PixelSize, hasAlpha: Bool,
        alreadyPremultiplied: Bool = false, output: PixelSize, kernel: ResamplingKernel
    ) -> Bitmap {
        let format: PixelFormat = hasAlpha ? .rgba8 : .rgbx8
        let sink = makeRowSink(source: source, output: output, format: format, kernel: kernel)
        let rowBytes = source.width * 4
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes, alignment: 16)
        defer { scratch.deallocate() }
        for y in 0..<source.height {
            scratch.baseAddress!.copyMemory(from: pixels + y * stride, byteCount: rowBytes)
            if hasAlpha {
                if alreadyPremultiplied {
                    sink.append(row: UnsafeRawBufferPointer(scratch))
                    continue
                }
                PixelConversion.premultiplyRGBA(scratch, pixelCount: source.width)
            } else {
                let bytes = scratch.bindMemory(to: UInt8.self)
                var i = 3
                while i < rowBytes {
                    bytes[i] = 255
                    i += 4
                }
            }
            sink.append(row: UnsafeRawBufferPointer(scratch))
        }
        return sink.finish()
    }
}
#endif
