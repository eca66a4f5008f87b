#if canImport(CJXL)
import CJXL
import Foundation

/// One run of libjxl's decoder over a whole file in memory, event by event.
///
/// libjxl applies the codestream's orientation itself (the default), and its basic info reports
/// the size as shown; alpha comes back straight (a premultiplied file is un-premultiplied), as
/// 8-bit RGBA.
final class JXLDecoding {
    private let decoder: OpaquePointer
    private let byteCount: Int

    /// The 8-bit RGBA layout Iris asks libjxl for.
    static var rgba8: JxlPixelFormat {
        JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    /// Makes a decoder over `bytes` (which must outlive it), wanting `events`.
    init(bytes: UnsafeRawBufferPointer, events: JxlDecoderStatus...) throws(ImageError) {
        guard let decoder = JxlDecoderCreate(nil) else {
            throw .decodingFailed(format: .jpegXL, reason: "libjxl could not make a decoder")
        }
        self.decoder = decoder
        byteCount = bytes.count
        let wanted = events.reduce(0) { $0 | Int32($1.rawValue) }
        guard JxlDecoderSubscribeEvents(decoder, wanted) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS
        else {
            JxlDecoderDestroy(decoder)
            throw .decodingFailed(format: .jpegXL, reason: "libjxl refused its settings")
        }
        JxlDecoderCloseInput(decoder)
    }

    deinit { JxlDecoderDestroy(decoder) }

    /// Runs the decoder to its next event; the whole file is given, so running out of input
    /// means it is truncated.
    func next() throws(ImageError) -> JxlDecoderStatus {
        let status = JxlDecoderProcessInput(decoder)
        switch status {
        case JXL_DEC_ERROR:
            throw .decodingFailed(format: .jpegXL, reason: "libjxl found the codestream invalid")
        case JXL_DEC_NEED_MORE_INPUT:
            throw .truncated(format: .jpegXL, received: byteCount, expected: nil)
        default:
            return status
        }
    }

    /// The basic info (valid after the `JXL_DEC_BASIC_INFO` event).
    func basicInfo() throws(ImageError) -> JxlBasicInfo {
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw .decodingFailed(format: .jpegXL, reason: "libjxl gave no basic info")
        }
        return info
    }

    /// Asks for detail up to the DC (1/8 resolution) to be reported as frame progression.
    func wantDCProgression() {
        _ = JxlDecoderSetProgressiveDetail(decoder, kDC)
    }

    /// The downsampling of what is decoded so far (8 after the DC of a VarDCT frame).
    var intendedDownsamplingRatio: Int { Int(JxlDecoderGetIntendedDownsamplingRatio(decoder)) }

    /// Bytes the output buffer for the frame must have.
    func outputBufferSize() throws(ImageError) -> Int {
        var format = Self.rgba8
        var size = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS else {
            throw .decodingFailed(format: .jpegXL, reason: "libjxl gave no output buffer size")
        }
        return size
    }

    /// Gives libjxl the buffer to write the frame's RGBA into.
    func setOutputBuffer(_ buffer: UnsafeMutableRawBufferPointer) throws(ImageError) {
        var format = Self.rgba8
        guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS else {
            throw .decodingFailed(format: .jpegXL, reason: "libjxl refused the output buffer")
        }
    }

    /// Writes what is decoded so far (upsampled to full size) into the output buffer.
    func flush() -> Bool { JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS }
}
#endif
