#if canImport(CGIF)
import CGIF
import Foundation

/// Walks a GIF's records with giflib, reading from memory.
///
/// giflib reports errors by return code (no longjmp), so it is called directly. Use through
/// ``withReader(_:_:)``, which keeps the bytes alive and closes the file.
final class GIFReader {
    private let file: UnsafeMutablePointer<GifFileType>
    private let input: Input
    private var pendingTransparentIndex: Int?
    private var pendingDelay = 0
    private var pendingDisposal = 0
    /// The Netscape (or ANIMEXTS) application extension's loop count, once read: 0 is forever.
    private(set) var loopCount: Int?

    /// The bytes giflib reads, and how far it has read.
    final class Input {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    /// Runs `body` with a reader over `data`.
    static func withReader<T>(_ data: Data, _ body: (GIFReader) throws(ImageError) -> T) throws(ImageError) -> T {
        let result: Result<T, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try GIFReader(Input(bytes))
                return .success(try body(reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(_ input: Input) throws(ImageError) {
        self.input = input
        var error: Int32 = 0
        let context = Unmanaged.passUnretained(input).toOpaque()
        guard let file = DGifOpen(context, { file, buffer, length in GIFReader.read(file, buffer, length) }, &error) else {
            throw Self.error(code: error, input: input)
        }
        self.file = file
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
    }

    /// Logical screen size.
    var canvas: PixelSize { PixelSize(width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight)) }

    /// Input bytes read so far: where the next record starts, between frames.
    var offset: Int { input.offset }

    /// Continues reading at `offset`, a record boundary found by an earlier pass with
    /// ``offset`` (giflib reads its input only through our callback and keeps no read-ahead
    /// between records).
    func seek(to offset: Int) {
        input.offset = min(max(0, offset), input.bytes.count)
        pendingTransparentIndex = nil
        pendingDelay = 0
        pendingDisposal = 0
    }

    /// Reads records up to the next image descriptor and returns it; `nil` at the trailer.
    /// The frame's pixels must then be read with ``readLine(into:)`` or skipped with
    /// ``skipPixels()`` before calling again.
    func nextFrame() throws(ImageError) -> GIFFrameInfo? {
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try check(DGifGetRecordType(file, &type))
            switch type {
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case IMAGE_DESC_RECORD_TYPE:
                try checkImageDescriptor(DGifGetImageDesc(file))
                // giflib keeps a record of every image descriptor read (with a copy of its local
                // colour table), growing one array by one element a frame: memory that grows with
                // the frame count and quadratic copying (a 100,000-frame GIF took minutes under
                // AddressSanitizer, whose realloc always moves). We use only the current one
                // (`Image`), so the records go as soon as they are made.
                GifFreeSavedImages(file)
                file.pointee.ImageCount = 0
                return try frameInfo()
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                throw .decodingFailed(format: .gif, reason: "unexpected record type \(type.rawValue)")
            }
        }
    }

    /// Reads the next row of the current frame's palette indices.
    func readLine(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
        try check(DGifGetLine(file, row.baseAddress, Int32(row.count)))
    }

    /// Skips the current frame's compressed pixels without decoding them.
    func skipPixels() throws(ImageError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(file, &codeSize, &block))
        while block != nil {
            try check(DGifGetCodeNext(file, &block))
        }
    }

    // MARK: - Records

    private func readExtension() throws(ImageError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetExtension(file, &code, &block))
        // Graphic Control Extension: length 4, flags (disposal in bits 2–4, transparency in
        // bit 0), delay (2, little-endian), transparent index.
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            pendingTransparentIndex = block[1] & 1 != 0 ? Int(block[4]) : nil
            pendingDisposal = Int(block[1] >> 2) & 7
            pendingDelay = Int(block[2]) | Int(block[3]) << 8
        }
        // Application extension "NETSCAPE2.0" (or "ANIMEXTS1.0"): a sub-block 1, loop count (2).
        var isLoopExtension = false
        if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
            let identifier = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
            isLoopExtension = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
        }
        while block != nil {
            try check(DGifGetExtensionNext(file, &block))
            if isLoopExtension, let block, block[0] >= 3, block[1] == 1 {
                loopCount = Int(block[2]) | Int(block[3]) << 8
            }
        }
    }

    /// The frame the image descriptor just read describes. A frame with no colour table (no
    /// local one, and no global one) is decoded with a palette of transparent entries: it keeps
    /// its place and its delay and draws nothing, as Chromium (Skia's GIF decoder) shows it. GIF89a
    /// leaves such a frame's colours to the decoder ("a system color table or a table of its
    /// own").
    private func frameInfo() throws(ImageError) -> GIFFrameInfo {
        let image = file.pointee.Image
        guard image.Width > 0, image.Height > 0 else {
            throw .invalidDimensions(format: .gif, width: Int(image.Width), height: Int(image.Height))
        }
        let transparent = pendingTransparentIndex
        let (delay, disposal) = (pendingDelay, pendingDisposal)
        pendingTransparentIndex = nil
        pendingDelay = 0
        pendingDisposal = 0
        var palette = [UInt8](repeating: 0, count: 256 * 4)
        let map = image.ColorMap ?? file.pointee.SColorMap
        if let map {
            // Indices past the table's end show as opaque black.
            for index in 0..<256 { palette[index * 4 + 3] = 255 }
            for index in 0..<min(Int(map.pointee.ColorCount), 256) {
                let colour = map.pointee.Colors[index]
                palette[index * 4] = colour.Red
                palette[index * 4 + 1] = colour.Green
                palette[index * 4 + 2] = colour.Blue
            }
            if let transparent {
                for channel in 0..<4 { palette[transparent * 4 + channel] = 0 }
            }
        }
        return GIFFrameInfo(
            left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
            interlaced: image.Interlace, palette: palette, transparentIndex: transparent,
            hasColourTable: map != nil, delay: delay, disposal: disposal)
    }

    // MARK: - Errors

    private func check(_ status: Int32) throws(ImageError) {
        guard status == GIF_OK else { throw Self.error(code: file.pointee.Error, input: input) }
    }

    /// Checks `DGifGetImageDesc`'s status. Its last read is the LZW minimum code size, which
    /// giflib rejects from 12 up with D_GIF_ERR_READ_FAILED, as if the data had run out: when
    /// bytes remain, the code size is named as the cause instead.
    private func checkImageDescriptor(_ status: Int32) throws(ImageError) {
        guard status != GIF_OK else { return }
        let code = file.pointee.Error
        if code == D_GIF_ERR_READ_FAILED, input.offset > 0, input.offset < input.bytes.count {
            let codeSize = input.bytes[input.offset - 1]
            throw .decodingFailed(
                format: .gif,
                reason: "the LZW minimum code size is \(codeSize), which giflib rejects (GIF allows 2–8, giflib at most 11): "
                    + "giflib error \(code), \(Self.giflibMessage(code))")
        }
        throw Self.error(code: code, input: input)
    }

    /// giflib's own text for `code` ("Failed to read from given file").
    private static func giflibMessage(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    /// Running out of bytes is truncation (giflib may report it as a missing descriptor);
    /// anything else giflib's own reason.
    private static func error(code: Int32, input: Input) -> ImageError {
        let exhausted = input.offset >= input.bytes.count
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return .truncated(format: .gif, received: input.bytes.count, expected: nil)
        case _ where exhausted && code != D_GIF_ERR_NOT_GIF_FILE:
            return .truncated(format: .gif, received: input.bytes.count, expected: nil)
        default:
            let reason = giflibMessage(code)
            return .decodingFailed(format: .gif, reason: reason.prefix(1).lowercased() + reason.dropFirst())
        }
    }

    /// giflib's read callback: copies the next bytes of the input.
    private static func read(
        _ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ length: Int32
    ) -> Int32 {
        guard let file, let buffer, let context = file.pointee.UserData else { return 0 }
        let input = Unmanaged<Input>.fromOpaque(context).takeUnretainedValue()
        let count = max(0, min(Int(length), input.bytes.count - input.offset))
        if count > 0 {
            UnsafeMutableRawPointer(buffer).copyMemory(from: input.bytes.baseAddress! + input.offset, byteCount: count)
            input.offset += count
        }
        return Int32(count)
    }
}
#endif
