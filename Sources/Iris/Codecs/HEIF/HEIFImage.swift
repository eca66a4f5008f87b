#if canImport(CHEIF)
import CHEIF
import Foundation

/// The primary image of a HEIF (HEIC) file as libheif reads it, for the length of one call.
///
/// libheif reads the file's boxes (no pixels) when the context is made; the primary image's
/// size is after the transformations libheif applies while decoding (`clap` crop, `irot`
/// rotation, `imir` mirroring), so the size reported here is the one shown. A grid image (how
/// iPhones store photos: 512×512 HEVC tiles) is one image to libheif, which decodes and
/// assembles its tiles.
struct HEIFImage {
    /// The primary image's handle; valid inside ``with(_:_:)`` only.
    let handle: OpaquePointer

    /// libheif's own cap on any image's side, which also covers what the header does not show
    /// (grid canvases, tiles, alpha and thumbnail images): a fuzzed 1 kB file whose grid claimed
    /// 63473×65514 made libheif allocate 4 GB with the cap lifted.
    static let librarySideLimit = 32768

    /// Runs `body` over the primary image of `data`: the bytes are not copied, so the context
    /// lives only for the call. `maximumSide` is libheif's cap on every image's side while it
    /// reads (and so decodes) this file: `nil` lifts it, for reading the header only (nothing is
    /// allocated then, and Iris's limits judge the size claimed, however large).
    static func with<R>(_ data: Data, maximumSide: Int?, _ body: (HEIFImage) throws(ImageError) -> R) throws(ImageError) -> R {
        let result: Result<R, ImageError> = data.withUnsafeBytes { bytes in
            guard let context = heif_context_alloc() else {
                return .failure(.decodingFailed(format: .heic, reason: "libheif could not make a context"))
            }
            defer { heif_context_free(context) }
            heif_context_set_maximum_image_size_limit(context, Int32(clamping: maximumSide ?? Int(Int32.max)))
            var error = heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
            guard error.code == heif_error_Ok else { return .failure(HEIFImage.error(error, data: data)) }
            var handle: OpaquePointer?
            error = heif_context_get_primary_image_handle(context, &handle)
            guard error.code == heif_error_Ok, let handle else { return .failure(HEIFImage.error(error, data: data)) }
            defer { heif_image_handle_release(handle) }
            do throws(ImageError) {
                return .success(try body(HEIFImage(handle: handle)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Shown size (after `clap`, `irot`, `imir`).
    var size: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
    }

    /// Whether the image has an alpha plane.
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }

    /// The ``ImageError`` for a libheif error: data that ends early is truncation, everything
    /// else a decoding failure with libheif's own message.
    static func error(_ error: heif_error, data: Data) -> ImageError {
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        if error.code == heif_error_Invalid_input && error.subcode == heif_suberror_End_of_data {
            return .truncated(format: .heic, received: data.count, expected: nil)
        }
        return .decodingFailed(format: .heic, reason: "libheif: \(message)")
    }
}
#endif
