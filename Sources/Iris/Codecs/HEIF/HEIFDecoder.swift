#if canImport(CHEIF)
import CHEIF
import Foundation

/// Decodes HEIF/HEIC still images with libheif (HEVC through its libde265 plug-in): the
/// primary image, grids assembled, alpha premultiplied.
///
/// Orientation: libheif applies the file's `irot` and `imir` (and the `clap` crop) while it
/// decodes, and the header reports the size after them. Iris does not read EXIF orientation
/// from HEIF (the format says `irot`/`imir` rule and EXIF is informational), so nothing is
/// turned twice: the registry sees orientation `.up`.
///
/// Size: libheif decodes the full image (it has no scaled decoding); when the file holds a
/// thumbnail image at least as large as the output (with the same aspect and alpha), that is
/// decoded instead. The rest is shrunk with Iris's resampler, row by row from libheif's
/// image, without a second full-size copy.
struct HEIFDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// HEIF/HEIC.
    var formats: Set<ImageFormat> { [.heic] }

    /// Reads the primary image's shown size and alpha from the file's boxes; no pixel is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        // libheif's side cap would refuse a large claim with its own message before Iris could
        // read the size: lift it here (no pixels are made), and let `DecodingLimits` judge.
        try HEIFImage.with(data, maximumSide: nil) { image throws(ImageError) in
            let size = image.size
            guard size.width > 0, size.height > 0 else {
                throw .invalidDimensions(format: .heic, width: size.width, height: size.height)
            }
            return ImageHeader(format: .heic, width: size.width, height: size.height, hasAlpha: image.hasAlpha)
        }
    }

    /// Decodes the primary image (or a large enough thumbnail) and shrinks it to
    /// `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .heic, reason: "the requested output size \(output) is empty")
        }
        // While decoding, libheif's cap stays on (raised only to the primary image's own sides,
        // which the registry's limits have accepted) for everything else the file holds.
        let side = max(HEIFImage.librarySideLimit, context.header.width, context.header.height)
        return try HEIFImage.with(data, maximumSide: side) { image throws(ImageError) in
            try context.options.limits.check(width: image.size.width, height: image.size.height, format: .heic)
            let thumbnail = HEIFThumbnail.covering(output, of: image)
            defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
            return try Self.decode(handle: thumbnail ?? image.handle, output: output, data: data, context: context)
        }
    }

    /// Decodes `handle` to 8-bit RGBA with libheif and resamples it to `output`.
    private static func decode(handle: OpaquePointer, output: PixelSize, data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let source = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        try context.options.limits.check(decodedSize: source)
        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        let error = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options)
        guard error.code == heif_error_Ok, let decoded else { throw HEIFImage.error(error, data: data) }
        defer { heif_image_release(decoded) }
        var stride: Int32 = 0
        guard let pixels = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
            throw .decodingFailed(format: .heic, reason: "libheif returned no RGBA plane")
        }
        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        guard width == source.width, height == source.height, Int(stride) >= width * 4 else {
            throw .decodingFailed(
                format: .heic, reason: "libheif decoded \(width)×\(height), the header said \(source.width)×\(source.height)")
        }
        // An image stored with premultiplied alpha comes back premultiplied: keep it as it is.
        let premultiplied = heif_image_handle_is_premultiplied_alpha(handle) != 0
        return StraightRGBARows.bitmap(
            pixels: UnsafeRawPointer(pixels), stride: Int(stride), source: source,
            hasAlpha: hasAlpha, alreadyPremultiplied: premultiplied,
            output: output, kernel: context.options.kernel)
    }
}
#endif
