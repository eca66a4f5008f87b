#if canImport(CGIF)
import CGIF
import Foundation
import Iris

/// Writes GIFs with giflib's encoder, for the decoder tests.
enum GIFTestWriter {
    /// One image of a GIF: where it sits, its palette indices row by row, and its options.
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        var indices: [UInt8]
        var transparentIndex: Int?
        var interlaced = false
        /// Delay in hundredths of a second; with `disposal` (0–3), written in a Graphic Control
        /// Extension (which is also written for a transparent index; its delay then defaults to 10).
        var delay: Int?
        var disposal = 0
    }

    /// Collects giflib's output.
    final class Output { var bytes = Data() }

    /// A GIF of `frames` on a `width`×`height` screen with one global `palette` (RGB triples,
    /// a power-of-two count from 2 to 256).
    /// `loopCount` writes a NETSCAPE2.0 application extension with that count.
    static func gif(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], frames: [Frame], loopCount: Int? = nil) throws -> Data {
        let output = Output()
        var error: Int32 = 0
        let context = Unmanaged.passUnretained(output).toOpaque()
        guard
            let file = EGifOpen(
                context,
                { file, bytes, count in
                    guard let file, let bytes, let context = file.pointee.UserData else { return 0 }
                    Unmanaged<Output>.fromOpaque(context).takeUnretainedValue().bytes.append(bytes, count: Int(count))
                    return count
                }, &error)
        else { throw ImageError.encodingFailed(format: .gif, reason: "EGifOpen failed: \(error)") }
        var closed = false
        defer { if !closed { EGifCloseFile(file, &error) } }
        EGifSetGifVersion(file, true)

        let colours = palette.map { GifColorType(Red: $0.0, Green: $0.1, Blue: $0.2) }
        guard let map = GifMakeMapObject(Int32(colours.count), colours) else {
            throw ImageError.encodingFailed(format: .gif, reason: "bad palette size \(colours.count)")
        }
        defer { GifFreeMapObject(map) }
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map), file)
        if let loopCount {
            try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), file)
            try check(EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8)), file)
            try check(EGifPutExtensionBlock(file, 3, [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]), file)
            try check(EGifPutExtensionTrailer(file), file)
        }
        for frame in frames {
            if frame.transparentIndex != nil || frame.delay != nil || frame.disposal != 0 {
                let delay = frame.delay ?? 10
                let flags = UInt8(frame.disposal << 2) | (frame.transparentIndex != nil ? 1 : 0)
                let control: [UInt8] = [flags, UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(frame.transparentIndex ?? 0)]
                try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, control), file)
            }
            try check(
                EGifPutImageDesc(
                    file, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
                    frame.interlaced, nil), file)
            for y in rowOrder(height: frame.height, interlaced: frame.interlaced) {
                var row = Array(frame.indices[(y * frame.width)..<((y + 1) * frame.width)])
                try check(EGifPutLine(file, &row, Int32(frame.width)), file)
            }
        }
        closed = true
        guard EGifCloseFile(file, &error) == GIF_OK else {
            throw ImageError.encodingFailed(format: .gif, reason: "EGifCloseFile failed: \(error)")
        }
        return output.bytes
    }

    /// Rows in the order they are stored: four passes when interlaced.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: height, by: $0.1)) }
    }

    private static func check(_ status: Int32, _ file: UnsafeMutablePointer<GifFileType>) throws {
        guard status == GIF_OK else {
            throw ImageError.encodingFailed(format: .gif, reason: "giflib error \(file.pointee.Error)")
        }
    }
}
#endif
