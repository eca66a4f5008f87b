#if canImport(CHEIF)
import CHEIF

/// Picks a HEIF thumbnail image (a `thmb` reference: iPhones store a small one) that can stand
/// in for the primary image when decoding to a small size.
enum HEIFThumbnail {
    /// The smallest thumbnail of `image` at least as large as `output` on both sides, with the
    /// same alpha and the same aspect (within one pixel), retained for the caller to release;
    /// `nil` when there is none.
    static func covering(_ output: PixelSize, of image: HEIFImage) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(image.handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(image.handle, &ids, Int32(count)))
        let main = image.size
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(listed) {
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(image.handle, id, &thumbnail).code == heif_error_Ok,
                let thumbnail
            else { continue }
            let size = PixelSize(width: Int(heif_image_handle_get_width(thumbnail)), height: Int(heif_image_handle_get_height(thumbnail)))
            let sameAspect = abs(size.width * main.height - size.height * main.width) <= max(main.width, main.height)
            let fits = size.width >= output.width && size.height >= output.height && size.pixelCount < main.pixelCount
            let sameAlpha = (heif_image_handle_has_alpha_channel(thumbnail) != 0) == image.hasAlpha
            if fits, sameAspect, sameAlpha, best.map({ size.pixelCount < $0.pixels }) ?? true {
                if let previous = best { heif_image_handle_release(previous.handle) }
                best = (thumbnail, size.pixelCount)
            } else {
                heif_image_handle_release(thumbnail)
            }
        }
        return best?.handle
    }
}
#endif

#if canImport(CHEIF)
extension HEIFThumbnail {
    /// Releases a handle ``covering(_:of:)`` returned.
    static func release(_ handle: OpaquePointer) { heif_image_handle_release(handle) }
}
#endif
