#if canImport(CPNG)
import Foundation

/// What a quick walk over a PNG's chunks finds before the first IDAT, without libpng: the
/// IHDR size as stored (so a zero size can be reported as such) and the APNG frame count.
struct PNGChunkScan {
    /// IHDR width and height exactly as stored, when the data starts with a PNG signature
    /// followed by an IHDR chunk.
    var storedSize: (width: UInt32, height: UInt32)?
    /// `num_frames` from an acTL chunk ahead of the first IDAT (an APNG), if any.
    var animationFrames: UInt32?

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Walks `data`; stops at the first IDAT, at the end of the data or at a malformed length.
    init(_ data: Data) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature) else { return }
            func u32(_ at: Int) -> UInt32 {
                UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
            }
            func type(_ at: Int) -> String {
                String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            }
            var offset = 8
            while offset + 8 <= bytes.count {
                let length = Int(u32(offset))
                let name = type(offset + 4)
                let body = offset + 8
                if name == "IDAT" { break }
                if name == "IHDR", offset == 8, length >= 8, body + 8 <= bytes.count {
                    storedSize = (u32(body), u32(body + 4))
                }
                if name == "acTL", length >= 8, body + 8 <= bytes.count {
                    animationFrames = u32(body)
                }
                guard length <= Int(Int32.max) else { break }
                offset = body + length + 4
            }
        }
    }
}
#endif
