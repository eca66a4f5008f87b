#if canImport(CTIFF)
import CTIFF
import Foundation

/// The bytes libtiff reads a file from (its "client" procedures over memory), and the messages
/// libtiff reports while reading them.
///
/// libtiff calls back with an opaque handle; the handle is this object, unretained, which the
/// ``TIFFReader`` that opened the file keeps alive. Nothing is written and nothing is copied:
/// the map procedure hands libtiff the caller's bytes, which it reads strips and tiles from.
final class TIFFMemoryFile {
    /// The file, kept alive by the caller for as long as the reader.
    let bytes: UnsafeRawBufferPointer
    /// The read position.
    private var position = 0
    /// The first error libtiff reported, if any (its later errors follow from it).
    private(set) var firstError: String?

    /// Reads from `bytes`, which must outlive the file.
    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The handle libtiff passes back to the procedures below.
    var handle: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func file(_ handle: UnsafeMutableRawPointer?) -> TIFFMemoryFile {
        Unmanaged<TIFFMemoryFile>.fromOpaque(handle!).takeUnretainedValue()
    }

    // MARK: - libtiff's procedures

    static var read: TIFFReadWriteProc {
        { handle, buffer, count in
            let file = TIFFMemoryFile.file(handle)
            guard count > 0, let buffer, file.position < file.bytes.count else { return 0 }
            let length = min(Int(count), file.bytes.count - file.position)
            buffer.copyMemory(from: file.bytes.baseAddress! + file.position, byteCount: length)
            file.position += length
            return tmsize_t(length)
        }
    }

    static var write: TIFFReadWriteProc { { _, _, _ in -1 } }

    static var seek: TIFFSeekProc {
        { handle, offset, whence in
            let file = TIFFMemoryFile.file(handle)
            let base: UInt64
            switch whence {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = UInt64(file.position)
            case SEEK_END: base = UInt64(file.bytes.count)
            default: return UInt64.max
            }
            // Offsets past the end are allowed (reads there return nothing); past Int, refused.
            let (target, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, target <= UInt64(Int.max) else { return UInt64.max }
            file.position = Int(target)
            return target
        }
    }

    static var close: TIFFCloseProc { { _ in 0 } }

    static var size: TIFFSizeProc { { handle in UInt64(TIFFMemoryFile.file(handle).bytes.count) } }

    static var map: TIFFMapFileProc {
        { handle, base, size in
            let file = TIFFMemoryFile.file(handle)
            guard let address = file.bytes.baseAddress else { return 0 }
            base?.pointee = UnsafeMutableRawPointer(mutating: address)
            size?.pointee = UInt64(file.bytes.count)
            return 1
        }
    }

    static var unmap: TIFFUnmapFileProc { { _, _, _ in } }

    /// Keeps libtiff's first error message; returning 1 tells libtiff not to call its global
    /// handler (which prints to standard error).
    static var error: TIFFErrorHandlerExtR {
        { _, userData, module, format, arguments in
            guard let userData else { return 1 }
            let file = TIFFMemoryFile.file(userData)
            if file.firstError == nil, let format, let arguments {
                var text = [CChar](repeating: 0, count: 512)
                _ = vsnprintf(&text, text.count, format, arguments)
                let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let module, module.pointee != 0 {
                    file.firstError = "\(String(cString: module)): \(message)"
                } else {
                    file.firstError = message
                }
            }
            return 1
        }
    }

    /// Drops warnings: they do not stop a read, and nothing is printed.
    static var warning: TIFFErrorHandlerExtR { { _, _, _, _, _ in 1 } }
}
#endif
