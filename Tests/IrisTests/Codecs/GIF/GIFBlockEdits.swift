#if canImport(CGIF)
import Foundation

/// Where a GIF's colour tables and images are (GIF89a: header, logical screen descriptor,
/// global colour table, then extensions and image descriptors until the trailer), to rebuild a
/// file ``GIFTestWriter`` wrote with a table removed or added or a field changed.
struct GIFBlocks {
    /// One image: the offset of its descriptor (the 0x2C byte), its local table, and the offset
    /// of its LZW minimum code size byte.
    struct Image {
        var descriptor: Int
        var localTable: Range<Int>?
        var codeSize: Int
    }

    var bytes: [UInt8]

    init(_ data: Data) { bytes = [UInt8](data) }

    var data: Data { Data(bytes) }

    /// Bytes of a colour table whose flags byte says `flags` (size in the low three bits).
    static func tableBytes(flags: UInt8) -> Int { flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 7) + 1) }

    /// The global colour table's bytes, if there is one.
    var globalTable: Range<Int>? {
        let size = Self.tableBytes(flags: bytes[10])
        return size == 0 ? nil : 13..<(13 + size)
    }

    /// Every image, in order.
    var images: [Image] {
        var images: [Image] = []
        var offset = 13 + Self.tableBytes(flags: bytes[10])
        func skipSubBlocks() {
            while offset < bytes.count, bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
            offset += 1
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                offset += 2
                skipSubBlocks()
            case 0x2C:
                let descriptor = offset
                let table = Self.tableBytes(flags: bytes[offset + 9])
                offset += 10
                let local = table == 0 ? nil : offset..<(offset + table)
                offset += table
                images.append(Image(descriptor: descriptor, localTable: local, codeSize: offset))
                offset += 1
                skipSubBlocks()
            default:
                return images  // the trailer (0x3B)
            }
        }
        return images
    }

    /// Removes the global colour table (and its flag).
    mutating func removeGlobalTable() {
        guard let table = globalTable else { return }
        bytes.removeSubrange(table)
        bytes[10] &= 0x78
    }

    /// Gives image `index` a local colour table of `colours` (RGB triples, a power of two from 2).
    mutating func addLocalTable(toImage index: Int, _ colours: [(UInt8, UInt8, UInt8)]) {
        let image = images[index]
        let sizeBits = UInt8(colours.count.trailingZeroBitCount - 1)
        bytes[image.descriptor + 9] = (bytes[image.descriptor + 9] & 0x78) | 0x80 | sizeBits
        bytes.insert(contentsOf: colours.flatMap { [$0.0, $0.1, $0.2] }, at: image.descriptor + 10)
    }
}
#endif
