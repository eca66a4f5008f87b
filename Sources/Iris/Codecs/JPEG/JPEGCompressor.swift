#if canImport(CJPEG)
import CIrisShims
import Foundation

/// One libjpeg compression to memory; a thin owner of the C shim's context that turns its
/// status codes into ``ImageError``s.
final class JPEGCompressor {
    private let handle: OpaquePointer

    /// Starts a file with `options` (see `iris_jpeg_encode_options`).
    init(options: iris_jpeg_encode_options) throws(ImageError) {
        var options = options
        guard let handle = iris_jpeg_encoder_create(&options) else {
            throw .encodingFailed(format: .jpeg, reason: "out of memory")
        }
        self.handle = handle
        // A context that failed while being set up carries its message (and only then one).
        let message = String(cString: iris_jpeg_encoder_message(handle))
        if !message.isEmpty { throw .encodingFailed(format: .jpeg, reason: message) }
    }

    deinit { iris_jpeg_encoder_destroy(handle) }

    /// Writes `profile` as APP2 `ICC_PROFILE` segments; call before the first row.
    func write(profile: ICCProfile) throws(ImageError) {
        guard profile.data.count <= 255 * 65_519 else {
            throw .encodingFailed(format: .jpeg, reason: "the \(profile.data.count)-byte ICC profile is over JPEG's 16 MB for a profile")
        }
        let status = profile.data.withUnsafeBytes { bytes in
            iris_jpeg_encoder_write_icc_profile(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count))
        }
        try check(status)
    }

    /// Compresses `count` rows from `rows`, `stride` bytes apart.
    func write(rows: UnsafeRawBufferPointer, stride: Int, count: Int) throws(ImageError) {
        guard count > 0 else { return }
        guard let base = rows.baseAddress, rows.count >= stride * (count - 1) else {
            throw .encodingFailed(format: .jpeg, reason: "too few bytes for \(count) rows")
        }
        try check(iris_jpeg_encoder_write_rows(handle, base.assumingMemoryBound(to: UInt8.self), stride, Int32(count)))
    }

    /// Finishes the file and returns it.
    func finish() throws(ImageError) -> Data {
        var bytes: UnsafePointer<UInt8>?
        var size = 0
        try check(iris_jpeg_encoder_finish(handle, &bytes, &size))
        guard let bytes else { throw .encodingFailed(format: .jpeg, reason: "no output") }
        return Data(bytes: bytes, count: size)
    }

    private func check(_ status: Int32) throws(ImageError) {
        guard status != IRIS_JPEG_OK else { return }
        let message = String(cString: iris_jpeg_encoder_message(handle))
        throw .encodingFailed(format: .jpeg, reason: message.isEmpty ? "libjpeg failed" : message)
    }
}
#endif
