#if canImport(CPNG)
import Foundation

/// The chunks of a PNG file in order, read from its raw bytes and never past them (PNG
/// specification, 5.3: length, type, body, CRC). The one walk every reader of chunks uses: the
/// facts before the first IDAT (``PNGChunkScan``), the orientation in `eXIf`
/// (``exifOrientation(in:releasingInput:)``) and the APNG structure (``APNGStructure``).
///
/// The walk yields each chunk whose length and type lie within the bytes. It ends at the end of
/// the bytes, or after a chunk that is cut short or has an invalid length (over 2^31 − 1):
/// such a chunk is yielded, not ``Chunk/isComplete``, and nothing after it.
struct PNGChunks: Sequence, IteratorProtocol {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Chunk types, as their four bytes read big-endian.
    static let IHDR: UInt32 = 0x4948_4452
    static let PLTE: UInt32 = 0x504C_5445
    static let tRNS: UInt32 = 0x7452_4E53
    static let IDAT: UInt32 = 0x4944_4154
    static let IEND: UInt32 = 0x4945_4E44
    static let eXIf: UInt32 = 0x6558_4966
    static let acTL: UInt32 = 0x6163_544C
    static let fcTL: UInt32 = 0x6663_544C
    static let fdAT: UInt32 = 0x6664_4154

    /// One chunk: where it starts and what its length field says.
    struct Chunk {
        /// The type, as its four bytes read big-endian (``PNGChunks/IHDR`` and the others).
        let type: UInt32
        /// The offset of the chunk's length field.
        let start: Int
        /// The body's length as stored.
        let length: Int
        /// Whether the length is valid and the body and CRC lie within the bytes.
        let isComplete: Bool

        /// The offset of the body.
        var body: Int { start + 8 }
        /// The offset just past the CRC.
        var end: Int { start + 12 + length }
    }

    /// The bytes walked.
    let bytes: UnsafeRawBufferPointer
    private var offset: Int

    /// The chunks of `bytes`; none when they do not start with the PNG signature.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = bytes.count >= 8 && bytes.prefix(8).elementsEqual(Self.signature) ? 8 : bytes.count
    }

    mutating func next() -> Chunk? {
        guard bytes.count - offset >= 8 else { return nil }
        let length = u32(at: offset)
        let isComplete = length <= 0x7FFF_FFFF && Int(length) <= bytes.count - offset - 12
        let chunk = Chunk(type: u32(at: offset + 4), start: offset, length: Int(length), isComplete: isComplete)
        offset = isComplete ? chunk.end : bytes.count
        return chunk
    }

    /// The big-endian 32-bit number at `at`; the caller has checked that its four bytes exist.
    func u32(at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// The big-endian 16-bit number at `at`; the caller has checked that its two bytes exist.
    func u16(at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

    /// The orientation the `eXIf` chunk of the PNG in `data` stores, or `nil`: usually before
    /// IDAT, but taken anywhere before IEND. `releasingInput` is told how far the walk, which may
    /// go to the end of the file, has read, so a mapped file's pages can be given back.
    static func exifOrientation(in data: Data, releasingInput: ((Int) -> Void)? = nil) -> Orientation? {
        data.withUnsafeBytes { raw in
            var chunks = PNGChunks(raw)
            guard chunks.offset == 8 else { return nil }  // not a PNG
            var position = chunks.offset
            defer { releasingInput?(position) }
            while let chunk = chunks.next(), chunk.isComplete {
                switch chunk.type {
                case eXIf:
                    position = chunk.start
                    return EXIFReader.tiffOrientation(in: UnsafeRawBufferPointer(rebasing: raw[chunk.body..<(chunk.body + chunk.length)]))
                case IEND:
                    position = chunk.start
                    return nil
                default:
                    position = chunk.end
                    releasingInput?(position)
                }
            }
            return nil
        }
    }
}

/// What the chunks before the first IDAT say, read without libpng: the IHDR size as stored (so
/// that a zero size can be reported as such) and the APNG frame count.
struct PNGChunkScan {
    /// IHDR width and height exactly as stored, when the data starts with a PNG signature
    /// followed by an IHDR chunk.
    var storedSize: (width: UInt32, height: UInt32)?
    /// `num_frames` from an acTL chunk ahead of the first IDAT (an APNG), if any.
    var animationFrames: UInt32?

    /// Walks `data` to the first IDAT.
    init(_ data: Data) {
        data.withUnsafeBytes { raw in
            var chunks = PNGChunks(raw)
            while let chunk = chunks.next(), chunk.type != PNGChunks.IDAT {
                // Eight bytes of the body are enough for either, even in a chunk cut short.
                guard chunk.length >= 8, chunk.body + 8 <= raw.count else { continue }
                if chunk.type == PNGChunks.IHDR, chunk.start == 8 {
                    storedSize = (chunks.u32(at: chunk.body), chunks.u32(at: chunk.body + 4))
                } else if chunk.type == PNGChunks.acTL {
                    animationFrames = chunks.u32(at: chunk.body)
                }
            }
        }
    }
}
#endif
