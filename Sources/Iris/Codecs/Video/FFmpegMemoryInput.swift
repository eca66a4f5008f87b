#if canImport(CFFmpeg)
import CFFmpeg
import Foundation

/// A video's bytes as FFmpeg's input (an `AVIOContext` reading from memory, seekable), and the
/// deadline FFmpeg's interrupt callback checks: the bytes the pipeline already holds are read in
/// place, never written to a file, and a decode past its time is stopped inside FFmpeg's loops.
final class FFmpegMemoryInput {
    private let data: Data
    private var position = 0
    /// How long FFmpeg's calls may run, from the input's making (`nil`: no limit).
    let timeLimit: Duration?
    /// When FFmpeg's blocking calls give up (`nil`: never).
    private(set) var deadline: ContinuousClock.Instant?
    /// Whether the interrupt callback fired (the deadline passed while FFmpeg read).
    private(set) var interrupted = false

    init(data: Data, timeLimit: Duration?) {
        self.data = data
        self.timeLimit = timeLimit
        deadline = timeLimit.map { ContinuousClock.now.advanced(by: $0) }
    }

    /// Starts the time limit again from now (for the next frame of a clip that plays on).
    func restartTimeLimit() {
        deadline = timeLimit.map { ContinuousClock.now.advanced(by: $0) }
        interrupted = false
    }

    /// Whether the deadline has passed.
    var isPastDeadline: Bool {
        guard let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// The size of FFmpeg's read buffer.
    static let bufferSize = 64 * 1024

    /// Makes the `AVIOContext` over this input (FFmpeg keeps `self` as the callbacks' opaque
    /// pointer: the caller keeps `self` alive for as long as the context lives).
    func makeContext() -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = av_malloc(Self.bufferSize) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0, opaque,
            { opaque, buffer, size in
                guard let opaque, let buffer else { return FFmpegError.eof }
                let input = Unmanaged<FFmpegMemoryInput>.fromOpaque(opaque).takeUnretainedValue()
                return input.read(into: buffer, size: Int(size))
            },
            nil,
            { opaque, offset, whence in
                guard let opaque else { return -1 }
                let input = Unmanaged<FFmpegMemoryInput>.fromOpaque(opaque).takeUnretainedValue()
                return input.seek(offset: offset, whence: whence)
            })
        if context == nil { av_free(buffer) }
        return context
    }

    /// The interrupt callback FFmpeg polls in its loops (with `self` as its opaque pointer).
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                let input = Unmanaged<FFmpegMemoryInput>.fromOpaque(opaque).takeUnretainedValue()
                if input.isPastDeadline {
                    input.interrupted = true
                    return 1
                }
                return 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        let count = min(size, data.count - position)
        guard count > 0 else { return FFmpegError.eof }
        let start = data.startIndex + position
        data.copyBytes(to: buffer, from: start..<(start + count))
        position += count
        return Int32(count)
    }

    private func seek(offset: Int64, whence: Int32) -> Int64 {
        // AVSEEK_SIZE asks for the length; AVSEEK_FORCE may be or-ed in and changes nothing here.
        if whence & 0x10000 != 0 { return Int64(data.count) }
        let base: Int
        switch whence & 0xFFFF {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = data.count
        default: return -1
        }
        let target = Int64(base) + offset
        guard target >= 0, target <= Int64(data.count) else { return -1 }
        position = Int(target)
        return target
    }
}

/// FFmpeg's error codes that Swift cannot import (they are macros of macros), and their text.
enum FFmpegError {
    /// `AVERROR_EOF`: the end of the input.
    static let eof: Int32 = -Int32(bitPattern: fourCC("EOF "))
    /// `AVERROR_INVALIDDATA`.
    static let invalidData: Int32 = -Int32(bitPattern: fourCC("INDA"))
    /// `AVERROR_EXIT`: an interrupt callback stopped the call.
    static let exit: Int32 = -Int32(bitPattern: fourCC("EXIT"))
    /// `AVERROR(EAGAIN)`.
    static let again: Int32 = -EAGAIN

    private static func fourCC(_ tag: String) -> UInt32 {
        let bytes = Array(tag.utf8)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// FFmpeg's text for `code`.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
