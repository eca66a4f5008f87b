#if canImport(CJXL)
import CJXL
import Foundation

/// Decodes JPEG XL with libjxl: the first frame, orientation applied (libjxl does, and reports
/// the shown size), alpha premultiplied.
///
/// Size: libjxl renders at full size. For a lossy (VarDCT) image shrunk to an eighth or less
/// on both sides, decoding stops after the DC (the 1/8 resolution image every VarDCT frame
/// starts with), which libjxl upsamples into the full-size buffer: the AC coefficients are never
/// decoded, several times faster, and averaged away by the shrink anyway. The rest is shrunk
/// with Iris's resampler, row by row from libjxl's buffer. Animated JPEG XL shows its first
/// frame.
struct JXLDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// JPEG XL (bare codestream or ISOBMFF container).
    var formats: Set<ImageFormat> { [.jpegXL] }

    /// Reads the shown size and alpha from the codestream's headers; no pixel is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let info: Result<JxlBasicInfo, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let decoding = try JXLDecoding(bytes: bytes, events: JXL_DEC_BASIC_INFO)
                // Only the basic info is subscribed: any other event before it ends the file.
                guard try decoding.next() == JXL_DEC_BASIC_INFO else {
                    throw .decodingFailed(format: .jpegXL, reason: "libjxl finished without basic info")
                }
                return .success(try decoding.basicInfo())
            } catch {
                return .failure(error)
            }
        }
        let basic = try info.get()
        let width = Int(basic.xsize), height = Int(basic.ysize)
        guard width > 0, height > 0 else { throw .invalidDimensions(format: .jpegXL, width: width, height: height) }
        return ImageHeader(format: .jpegXL, width: width, height: height, hasAlpha: basic.alpha_bits > 0)
    }

    /// Decodes the first frame at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .jpegXL, reason: "the requested output size \(output) is empty")
        }
        let decoded: Result<Bitmap, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                return .success(try Self.decode(bytes, output: output, context: context))
            } catch {
                return .failure(error)
            }
        }
        return try decoded.get()
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, output: PixelSize, context: DecodeContext) throws(ImageError) -> Bitmap {
        let decoding = try JXLDecoding(bytes: bytes, events: JXL_DEC_BASIC_INFO, JXL_DEC_FRAME_PROGRESSION, JXL_DEC_FULL_IMAGE)
        decoding.wantDCProgression()
        var source = PixelSize(width: 0, height: 0)
        var hasAlpha = false
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        loop: while true {
            let status = try decoding.next()
            switch status {
            case JXL_DEC_BASIC_INFO:
                let info = try decoding.basicInfo()
                source = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
                hasAlpha = info.alpha_bits > 0
                try context.options.limits.check(width: source.width, height: source.height, format: .jpegXL)
                try context.options.limits.check(decodedSize: source)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                let size = try decoding.outputBufferSize()
                guard size == source.pixelCount * 4 else {
                    throw .decodingFailed(format: .jpegXL, reason: "libjxl wants \(size) bytes for a \(source) image")
                }
                let made = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
                buffer = made
                try decoding.setOutputBuffer(made)
            case JXL_DEC_FRAME_PROGRESSION:
                // The DC is decoded: enough when the output is an eighth of the source or less.
                let ratio = decoding.intendedDownsamplingRatio
                if ratio > 1, output.width * ratio <= source.width, output.height * ratio <= source.height,
                    buffer != nil, decoding.flush()
                {
                    break loop
                }
            case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                break loop
            default:
                // Nothing else is subscribed: an event libjxl would repeat must not spin here.
                throw .decodingFailed(format: .jpegXL, reason: "libjxl reported an unexpected event (\(status.rawValue))")
            }
        }
        guard let buffer, source.pixelCount > 0 else {
            throw .decodingFailed(format: .jpegXL, reason: "libjxl finished without an image")
        }
        return StraightRGBARows.bitmap(
            pixels: UnsafeRawPointer(buffer.baseAddress!), stride: source.width * 4,
            source: source, hasAlpha: hasAlpha, output: output, kernel: context.options.kernel)
    }
}
#endif
