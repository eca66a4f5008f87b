#if canImport(CPNG)
import CIrisShims
import Foundation

/// One libpng write into memory, through the setjmp-guarded C shim.
final class PNGWriteSession {
    private let handle: OpaquePointer
    private let rowBytes: Int
    private let inputRowBytes: Int
    private let height: Int

    /// Starts a PNG: signature, IHDR, iCCP (when `iccProfile` is given), PLTE, tRNS. With `stripFiller` (8-bit RGB only) each input
    /// pixel has a fourth byte that is dropped.
    init(
        width: Int, height: Int, colorType: PNGColorType, bitDepth: Int, palette: [PNGWriter.PaletteEntry] = [],
        trns: PNGTransparency? = nil, interlaced: Bool = false, compressionLevel: Int = -1,
        stripFiller: Bool = false, iccProfile: ICCProfile? = nil
    ) throws(ImageError) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .encodingFailed(format: .png, reason: "cannot write a \(width)×\(height) image")
        }
        guard colorType.legalBitDepths.contains(bitDepth) else {
            throw .encodingFailed(format: .png, reason: "bit depth \(bitDepth) is not allowed for colour type \(colorType.rawValue)")
        }
        guard !stripFiller || (colorType == .rgb && bitDepth == 8) else {
            throw .encodingFailed(format: .png, reason: "a filler byte can only be stripped from 8-bit RGB")
        }
        guard palette.count <= 256 else {
            throw .encodingFailed(format: .png, reason: "a palette has at most 256 entries, not \(palette.count)")
        }
        guard let handle = iris_png_writer_create() else {
            throw .encodingFailed(format: .png, reason: "out of memory creating the libpng writer")
        }
        self.handle = handle
        self.height = height
        rowBytes = colorType.rowBytes(width: width, bitDepth: bitDepth)
        inputRowBytes = stripFiller ? width * 4 : rowBytes

        let paletteBytes = palette.flatMap { [$0.red, $0.green, $0.blue] }
        var alphas: [UInt8] = []
        var params = iris_png_write_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.bit_depth = Int32(bitDepth)
        params.color_type = colorType.rawValue
        params.interlaced = interlaced ? 1 : 0
        params.compression_level = Int32(max(-1, min(9, compressionLevel)))
        params.strip_filler = stripFiller ? 1 : 0
        switch trns {
        case .paletteAlpha(let values):
            alphas = Array(values.prefix(256))
        case .gray(let value):
            params.has_trns_color = 1
            params.trns_gray = value
        case let .rgb(red, green, blue):
            params.has_trns_color = 1
            params.trns_red = red
            params.trns_green = green
            params.trns_blue = blue
        case nil:
            break
        }
        let profileBytes = [UInt8](iccProfile?.data ?? Data())
        let status = paletteBytes.withUnsafeBufferPointer { paletteBuffer in
            alphas.withUnsafeBufferPointer { alphaBuffer in
                profileBytes.withUnsafeBufferPointer { profileBuffer in
                    params.palette = paletteBuffer.isEmpty ? nil : paletteBuffer.baseAddress
                    params.palette_count = Int32(palette.count)
                    params.trns_alpha = alphaBuffer.isEmpty ? nil : alphaBuffer.baseAddress
                    params.trns_alpha_count = Int32(alphaBuffer.count)
                    params.icc_profile = profileBuffer.isEmpty ? nil : profileBuffer.baseAddress
                    params.icc_profile_size = UInt32(clamping: profileBuffer.count)
                    return iris_png_write_begin(handle, &params)
                }
            }
        }
        try check(status)
    }

    deinit { iris_png_writer_destroy(handle) }

    /// Writes `count` rows of a non-interlaced image from `buffer`, `stride` bytes apart.
    func writeRows(_ buffer: UnsafeRawBufferPointer, stride: Int, count: Int) throws(ImageError) {
        guard count > 0 else { return }
        guard stride >= inputRowBytes, buffer.count >= stride * (count - 1) + inputRowBytes else {
            throw .encodingFailed(format: .png, reason: "row buffer of \(buffer.count) bytes is too small")
        }
        try check(iris_png_write_rows(handle, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, UInt32(count)))
    }

    /// Writes the whole image (every interlace pass) from `buffer`, rows `stride` bytes apart.
    func writeImage(_ buffer: UnsafeRawBufferPointer, stride: Int) throws(ImageError) {
        guard stride >= inputRowBytes, buffer.count >= stride * (height - 1) + inputRowBytes else {
            throw .encodingFailed(format: .png, reason: "image buffer of \(buffer.count) bytes is too small")
        }
        try check(iris_png_write_image(handle, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride))
    }

    /// Writes IEND and returns the file.
    func finish() throws(ImageError) -> Data {
        try check(iris_png_write_end(handle))
        var size = 0
        guard let bytes = iris_png_writer_bytes(handle, &size) else {
            throw .encodingFailed(format: .png, reason: "libpng wrote nothing")
        }
        return Data(bytes: bytes, count: size)
    }

    private func check(_ status: IrisPNGStatus) throws(ImageError) {
        guard status != IRIS_PNG_OK else { return }
        let message = String(cString: iris_png_writer_message(handle))
        throw .encodingFailed(format: .png, reason: message.isEmpty ? "libpng reported an error" : message)
    }
}
#endif
