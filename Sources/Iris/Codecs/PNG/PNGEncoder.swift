#if canImport(CPNG)
import CIrisShims
import Foundation

/// Encodes bitmaps as 8-bit PNG with libpng: ``PixelFormat/rgba8`` as RGBA (unpremultiplied;
/// straight alpha, ``Bitmap/isPremultiplied`` false, is written as it is),
/// ``PixelFormat/rgbx8`` as RGB, ``PixelFormat/gray8`` as grey; `bgra8` and `bgrx8` are
/// converted to their RGB-order counterparts first. Lossless, so ``EncodeOptions`` quality is
/// ignored. The bitmap's ICC profile (``Bitmap/embeddableICCProfile``) is written as `iCCP`.
struct PNGEncoder: ImageEncoding {
    /// zlib compression level, 0 (fastest) to 9 (smallest).
    var compressionLevel: Int

    /// Makes an encoder; level 6 is zlib's balance of speed and size.
    init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }

    /// PNG.
    var format: ImageFormat { .png }

    /// The PNG for `bitmap`.
    func encode(_ bitmap: Bitmap, options: EncodeOptions = EncodeOptions()) throws(ImageError) -> Data {
        let bitmap = bitmap.inRGBOrder
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw .encodingFailed(format: .png, reason: "cannot encode an empty \(bitmap.width)×\(bitmap.height) bitmap")
        }
        let colorType: PNGColorType =
            switch bitmap.format {
            case .gray8: .gray
            case .rgbx8, .bgrx8: .rgb
            case .rgba8, .bgra8: .rgba
            }
        let session = try PNGWriteSession(
            width: bitmap.width, height: bitmap.height, colorType: colorType, bitDepth: 8,
            compressionLevel: compressionLevel, stripFiller: bitmap.format == .rgbx8,
            iccProfile: bitmap.embeddableICCProfile)
        let result: Result<Void, ImageError> = bitmap.withUnsafeBytes { pixels in
            do throws(ImageError) {
                if bitmap.format.hasAlpha && bitmap.isPremultiplied {
                    try Self.writeUnpremultiplied(pixels, bitmap: bitmap, session: session)
                } else {
                    try session.writeRows(pixels, stride: bitmap.bytesPerRow, count: bitmap.height)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return try session.finish()
    }

    /// Premultiplied rows are copied a batch at a time, unpremultiplied and written.
    private static func writeUnpremultiplied(_ pixels: UnsafeRawBufferPointer, bitmap: Bitmap, session: PNGWriteSession) throws(ImageError)
    {
        let rowBytes = bitmap.width * 4
        let batchRows = max(1, min(bitmap.height, (256 * 1024) / rowBytes))
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * batchRows, alignment: 16)
        defer { scratch.deallocate() }
        var y = 0
        while y < bitmap.height {
            let count = min(batchRows, bitmap.height - y)
            for row in 0..<count {
                let source = (y + row) * bitmap.bytesPerRow
                let destination = UnsafeMutableRawBufferPointer(rebasing: scratch[(row * rowBytes)..<((row + 1) * rowBytes)])
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: pixels[source..<(source + rowBytes)]))
                PixelConversion.unpremultiplyRGBA(destination, pixelCount: bitmap.width)
            }
            try session.writeRows(UnsafeRawBufferPointer(scratch), stride: rowBytes, count: count)
            y += count
        }
    }
}
#endif
