#if IRIS_TESTABLE
import Foundation
@testable import Iris

/// Reading and rewriting PNG chunks, to make damaged and hand-built files.
package enum PNGBytes {
    /// The eight bytes every PNG starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk's position: `offset` is where its length field starts.
    package struct Chunk {
        package var type: String
        package var offset: Int
        package var length: Int
        package var dataRange: Range<Int> { (offset + 8)..<(offset + 8 + length) }
    }

    package static func chunks(_ data: Data) -> [Chunk] {
        let bytes = [UInt8](data)
        var out: [Chunk] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            out.append(Chunk(type: type, offset: offset, length: length))
            offset += 12 + length
        }
        return out
    }

    /// A whole chunk: length, type, data, CRC.
    package static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(body.count)) + typeBytes + body + be32(CRC32.checksum(typeBytes + body))
    }

    /// An IHDR chunk.
    package static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
    }

    /// `png` with `chunk` (a whole chunk) inserted right after its IHDR.
    package static func inserting(_ chunk: [UInt8], afterIHDROf png: Data) -> Data {
        let bytes = [UInt8](png)
        precondition(bytes.count >= 33 && Array(bytes[0..<8]) == signature && Array(bytes[12..<16]) == Array("IHDR".utf8), "not a PNG")
        let afterIHDR = 8 + 12 + (Int(bytes[8]) << 24 | Int(bytes[9]) << 16 | Int(bytes[10]) << 8 | Int(bytes[11]))
        return Data(bytes[0..<afterIHDR] + chunk + bytes[afterIHDR...])
    }

    /// `data` with the CRC of the chunk at `chunk` recomputed (after its data was changed).
    package static func fixingCRC(_ data: Data, chunk: Chunk) -> Data {
        var bytes = [UInt8](data)
        let crc = CRC32.checksum(Array(bytes[(chunk.offset + 4)..<chunk.dataRange.upperBound]))
        bytes.replaceSubrange(chunk.dataRange.upperBound..<(chunk.dataRange.upperBound + 4), with: be32(crc))
        return Data(bytes)
    }

    package static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}
#endif
