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

    /// Settings common to every path: size, quality, scans and chroma subsampling (the tests
    /// write four-colour and exhaustively progressive JPEGs from them too).
    static func settings(for size: PixelSize, quality: Int, progressive: Bool) -> iris_jpeg_encode_options {
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
