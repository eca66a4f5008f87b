#if canImport(CJPEG)
import CIrisShims
import Foundation

/// Encodes JPEG with libjpeg-turbo.
///
/// Colour bitmaps become YCbCr JPEGs (`bgra8` and `bgrx8` are converted to RGB order first),
/// `gray8` bitmaps greyscale ones. JPEG has no alpha: a bitmap's alpha is dropped, which composites it over black (its colour is
/// premultiplied). Quality is ``EncodeOptions/quality`` (clamped to 1–100);
/// ``EncodeOptions/progressive`` writes libjpeg's standard progressive scans. Chroma is
/// subsampled 4:2:0 below quality 90 and kept at full resolution (4:4:4) from 90 up. The
/// bitmap's ICC profile (``Bitmap/embeddableICCProfile``) is written as APP2 segments.
struct JPEGEncoder: ImageEncoding {
    /// Quality from which chroma is not subsampled.
    static let fullChromaQuality = 90

    /// Makes an encoder.
    init() {}

    var format: ImageFormat { .jpeg }

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        let bitmap = bitmap.premultiplied().inRGBOrder
        let grey = bitmap.format == .gray8
        var settings = Self.settings(for: bitmap.size, quality: options.quality, progressive: options.progressive)
        settings.input_color_space = grey ? IRIS_JPEG_CS_GRAY : IRIS_JPEG_CS_RGBX
        settings.jpeg_color_space = grey ? IRIS_JPEG_CS_GRAY : IRIS_JPEG_CS_YCBCR
        let compressor = try JPEGCompressor(options: settings)
        if let profile = bitmap.embeddableICCProfile { try compressor.write(profile: profile) }
        // rgba8 rows go in as RGBX: libjpeg ignores the fourth byte.
        try bitmap.withUnsafeBytes { bytes throws(ImageError) in
            try compressor.write(rows: bytes, stride: bitmap.bytesPerRow, count: bitmap.height)
        }
        return try compressor.finish()
    }

    /// Writes a four-colour JPEG from an RGB(X/A) bitmap (alpha dropped), for tests and tools:
    /// CMYK with full black generation, or YCCK (`ycck`, which always carries the Adobe marker).
    /// With `adobeMarker` the samples are stored inverted, as Photoshop does; without it (CMYK
    /// only) they are stored as plain ink amounts.
    static func encodeFourColour(_ bitmap: Bitmap, quality: Int, ycck: Bool, adobeMarker: Bool = true,
                                 progressive: Bool = false) throws -> Data {
        guard bitmap.format != .gray8 else {
            throw ImageError.encodingFailed(format: .jpeg, reason: "CMYK needs a colour bitmap")
        }
        let bitmap = bitmap.inRGBOrder
        let inverted = adobeMarker || ycck
        var settings = settings(for: bitmap.size, quality: quality, progressive: progressive)
        settings.input_color_space = IRIS_JPEG_CS_CMYK
        settings.jpeg_color_space = ycck ? IRIS_JPEG_CS_YCCK : IRIS_JPEG_CS_CMYK
        settings.adobe_marker = inverted ? 1 : 0
        let compressor = try JPEGCompressor(options: settings)
        let stride = bitmap.width * 4
        var row = [UInt8](repeating: 0, count: stride)
        for y in 0..<bitmap.height {
            try bitmap.withUnsafeBytes { bytes in
                let source = UnsafeRawBufferPointer(rebasing: bytes[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + stride)])
                try row.withUnsafeMutableBytes { cmyk in
                    JPEGCMYK.rgbToCMYK(from: source, to: cmyk, pixelCount: bitmap.width, inverted: inverted)
                    try compressor.write(rows: UnsafeRawBufferPointer(cmyk), stride: stride, count: 1)
                }
            }
        }
        return try compressor.finish()
    }

    /// Writes a valid colour JPEG with one scan per coefficient band per bit (about 1,900 scans),
    /// to test the decoder's scan limit.
    static func encodeExhaustivelyProgressive(_ bitmap: Bitmap, quality: Int) throws -> Data {
        var settings = settings(for: bitmap.size, quality: quality, progressive: false)
        settings.scans = IRIS_JPEG_SCANS_EXHAUSTIVE
        settings.input_color_space = IRIS_JPEG_CS_RGBX
        settings.jpeg_color_space = IRIS_JPEG_CS_YCBCR
        let compressor = try JPEGCompressor(options: settings)
        try bitmap.converted(to: .rgbx8).withUnsafeBytes { bytes in
            try compressor.write(rows: bytes, stride: bitmap.width * 4, count: bitmap.height)
        }
        return try compressor.finish()
    }

    /// Settings common to every path: size, quality, scans and chroma subsampling.
    private static func settings(for size: PixelSize, quality: Int, progressive: Bool) -> iris_jpeg_encode_options {
        var settings = iris_jpeg_encode_options()
        settings.width = Int32(clamping: size.width)
        settings.height = Int32(clamping: size.height)
        settings.quality = Int32(min(100, max(1, quality)))
        settings.scans = progressive ? IRIS_JPEG_SCANS_PROGRESSIVE : IRIS_JPEG_SCANS_BASELINE
        settings.subsample_chroma = quality < fullChromaQuality ? 1 : 0
        return settings
    }
}
#endif
