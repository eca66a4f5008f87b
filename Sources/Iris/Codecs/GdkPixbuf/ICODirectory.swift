import Foundation

/// An icon file's directory, read before anything is decoded: which image is shown (the largest,
/// as imgproxy's loader picks it; a bitmap one is gdk-pixbuf's to decode, which shows the
/// largest of those, a PNG-compressed one the PNG decoder's), the largest size any image claims
/// (what the limits judge), and whether every image is inside the file.
struct ICODirectory {
    /// One image of the icon.
    struct Entry {
        /// Its size: from its bitmap header (the directory's bytes say 0 for 256), or the
        /// directory's for a PNG entry.
        var size: PixelSize
        /// Bits per pixel, as the directory says (0 when it does not).
        var bitCount: Int
        /// Whether its data is a PNG stream (Vista icons).
        var isPNG: Bool
        /// Where its data is in the file: a byte range of it.
        var bytes: Range<Int>
    }

    /// The images, in directory order.
    let entries: [Entry]

    /// The image shown: the largest (then the deepest; then a PNG one, whose size is its own
    /// header's). When it is a bitmap, it is the one gdk-pixbuf shows (the largest of those).
    var shown: Entry {
        entries.max { ($0.size.pixelCount, $0.bitCount, $0.isPNG ? 1 : 0) < ($1.size.pixelCount, $1.bitCount, $1.isPNG ? 1 : 0) }!
    }

    /// The largest size any image claims.
    var largest: PixelSize? { entries.max { $0.size.pixelCount < $1.size.pixelCount }?.size }

    /// Parses the directory of `data` and each image's header.
    init(_ data: Data) throws(ImageError) {
        let parsed: Result<[Entry], ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try Self.entries(ByteReader(bytes, bigEndian: false)) }
        }
        entries = try parsed.get()
    }

    private static func entries(_ reader: ByteReader) throws(ImageError) -> [Entry] {
        let received = reader.bytes.count
        guard reader.u16(at: 0) == 0, reader.u16(at: 2) == 1, let count = reader.u16(at: 4) else {
            throw .truncated(format: .ico, received: received, expected: 6)
        }
        guard count > 0 else { throw .decodingFailed(format: .ico, reason: "the icon's directory lists no image") }
        var entries: [Entry] = []
        for index in 0..<Int(count) {
            let entry = 6 + 16 * index
            guard let w = reader.u8(at: entry), let h = reader.u8(at: entry + 1), let bits = reader.u16(at: entry + 6),
                let length = reader.u32(at: entry + 8), let offset = reader.u32(at: entry + 12)
            else {
                throw .truncated(format: .ico, received: received, expected: 6 + 16 * Int(count))
            }
            let end = Int(offset) + Int(length)
            guard end <= received else { throw .truncated(format: .ico, received: received, expected: end) }
            var size = PixelSize(width: w == 0 ? 256 : Int(w), height: h == 0 ? 256 : Int(h))
            let isPNG = reader.matches([0x89, 0x50, 0x4E, 0x47], at: Int(offset))
            if !isPNG {
                // BITMAPINFOHEADER: the height counts the colour rows and the mask's.
                guard let bw = reader.u32(at: Int(offset) + 4), let bh = reader.u32(at: Int(offset) + 8) else {
                    throw .truncated(format: .ico, received: received, expected: Int(offset) + 12)
                }
                let width = Int(Int32(bitPattern: bw)), height = Int(Int32(bitPattern: bh)) / 2
                guard width > 0, height > 0 else { throw .invalidDimensions(format: .ico, width: width, height: height) }
                size = PixelSize(width: width, height: height)
            }
            entries.append(Entry(size: size, bitCount: Int(bits), isPNG: isPNG, bytes: Int(offset)..<end))
        }
        return entries
    }
}
