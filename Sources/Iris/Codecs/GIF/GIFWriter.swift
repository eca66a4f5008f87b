#if canImport(CGIF)
import CGIF
import Foundation

/// Writes one GIF89a into memory with giflib's encoder (`EGifOpen` with an output callback):
/// the logical screen with the first frame's palette as the global colour table, the Netscape
/// loop extension when asked for, then frames one at a time, each a full-screen image with its
/// Graphic Control Extension (delay, disposal, transparent index) and, after the first, its
/// own local colour table. giflib compresses the rows (LZW).
///
/// giflib reports errors by return code; each becomes ``ImageError/encodingFailed(format:reason:)``
/// naming the step and giflib's own message.
final class GIFWriter {
    /// What a frame leaves behind before the next is drawn (GIF's disposal methods).
    enum Disposal: Int32 {
        /// Nothing said (a still).
        case unspecified = 0
        /// The frame's area goes back to transparent: the next frame starts on a clear screen.
        case background = 2
    }

    /// The bytes giflib has written so far.
    private final class Output {
        var data = Data()
    }

    /// The largest width or height GIF can store (16-bit fields).
    static let maxDimension = 65535

    private var file: UnsafeMutablePointer<GifFileType>?
    private let output = Output()
    private let size: PixelSize
    private var frames = 0

    /// Opens a GIF of `size` whose global colour table is `firstFrame`'s palette. `netscapeLoops`
    /// is the Netscape extension's count (0 loops forever, `n` repeats `n` times); `nil` writes
    /// no extension (played once).
    init(size: PixelSize, firstFrame: GIFIndexedImage, netscapeLoops: Int?) throws(ImageError) {
        try size.checkEncodable(as: .gif, maxDimension: Self.maxDimension)
        self.size = size
        var error: Int32 = 0
        let context = Unmanaged.passUnretained(output).toOpaque()
        guard let file = EGifOpen(context, { file, bytes, length in GIFWriter.write(file, bytes, length) }, &error) else {
            throw Self.failure("giflib could not start a GIF", code: error)
        }
        self.file = file
        // giflib writes "GIF87a" unless told otherwise; the extensions need GIF89a.
        EGifSetGifVersion(file, true)
        try Self.withColourMap(firstFrame.palette) { map throws(ImageError) in
            try check(EGifPutScreenDesc(file, Int32(size.width), Int32(size.height), 8, 0, map), "the screen descriptor")
        }
        if let netscapeLoops { try putLoopExtension(min(max(netscapeLoops, 0), 65535)) }
    }

    deinit {
        if let file { EGifCloseFile(file, nil) }
    }

    /// Adds `frame` (full screen), shown for `delayCentiseconds`, then disposed as `disposal`.
    /// The first frame uses the global colour table it was opened with.
    func add(_ frame: GIFIndexedImage, delayCentiseconds: Int, disposal: Disposal) throws(ImageError) {
        guard let file else { throw .encodingFailed(format: .gif, reason: "the GIF is already finished") }
        guard frame.size == size else {
            throw .encodingFailed(format: .gif, reason: "frame is \(frame.size), the animation \(size)")
        }
        let delay = min(max(delayCentiseconds, 0), 65535)
        if frame.transparentIndex != nil || delay > 0 || disposal != .unspecified {
            var control = GraphicsControlBlock(
                DisposalMode: disposal.rawValue, UserInputFlag: false, DelayTime: Int32(delay),
                TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var bytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &bytes)
            try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes), "frame \(frames)'s graphic control extension")
        }
        let local = frames == 0 ? nil : frame.palette
        try Self.withColourMap(local) { map throws(ImageError) in
            try check(EGifPutImageDesc(file, 0, 0, Int32(size.width), Int32(size.height), false, map), "frame \(frames)'s image descriptor")
        }
        var frame = frame
        let index = frames
        try frame.withRows { row, width throws(ImageError) in
            try check(EGifPutLine(file, row, Int32(width)), "frame \(index)'s pixels")
        }
        frames += 1
    }

    /// Writes the trailer and returns the file.
    func finish() throws(ImageError) -> Data {
        guard let file else { throw .encodingFailed(format: .gif, reason: "the GIF is already finished") }
        guard frames > 0 else { throw .encodingFailed(format: .gif, reason: "the GIF has no frames") }
        self.file = nil
        var error: Int32 = 0
        // Closing frees the file whatever it returns.
        guard EGifCloseFile(file, &error) == GIF_OK else { throw Self.failure("giflib could not finish the GIF", code: error) }
        return output.data
    }

    // MARK: - Records

    /// The Netscape 2.0 application extension: sub-block 1, the loop count (little-endian).
    private func putLoopExtension(_ loops: Int) throws(ImageError) {
        guard let file else { return }
        let identifier = Array("NETSCAPE2.0".utf8)
        let data: [UInt8] = [1, UInt8(loops & 0xFF), UInt8(loops >> 8)]
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "the loop extension")
        try check(EGifPutExtensionBlock(file, Int32(identifier.count), identifier), "the loop extension")
        try check(EGifPutExtensionBlock(file, Int32(data.count), data), "the loop extension")
        try check(EGifPutExtensionTrailer(file), "the loop extension")
    }

    /// Calls `body` with a giflib colour map of `palette` (a power of two, 2 to 256 entries), or
    /// with `nil` for none.
    private static func withColourMap(
        _ palette: [GifColorType]?, _ body: (UnsafePointer<ColorMapObject>?) throws(ImageError) -> Void
    ) throws(ImageError) {
        guard let palette else { return try body(nil) }
        guard let map = palette.withUnsafeBufferPointer({ GifMakeMapObject(Int32($0.count), $0.baseAddress) }) else {
            throw .encodingFailed(format: .gif, reason: "giflib could not make a colour table of \(palette.count) entries")
        }
        defer { GifFreeMapObject(map) }
        try body(UnsafePointer(map))
    }

    // MARK: - Errors

    private func check(_ status: Int32, _ step: @autoclosure () -> String) throws(ImageError) {
        guard status != GIF_OK else { return }
        throw Self.failure("giflib could not write \(step())", code: file?.pointee.Error ?? 0)
    }

    /// `reason` with giflib's own text for `code` ("Failed to write to given file").
    private static func failure(_ reason: String, code: Int32) -> ImageError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .encodingFailed(format: .gif, reason: "\(reason): giflib error \(code), \(message)")
    }

    /// giflib's write callback: appends the bytes to the output.
    private static func write(_ file: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ length: Int32) -> Int32 {
        guard let file, let context = file.pointee.UserData, length >= 0 else { return 0 }
        let output = Unmanaged<Output>.fromOpaque(context).takeUnretainedValue()
        if let bytes, length > 0 { output.data.append(bytes, count: Int(length)) }
        return length
    }
}
#endif
