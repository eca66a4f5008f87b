import Foundation

/// CRC-32 (the IEEE polynomial used by zlib, PNG and Ethernet), computed eight bytes at a time.
///
/// Detects every single-bit flip and every burst of up to 32 flipped bits; the disk cache uses
/// it to find torn or damaged files.
enum CRC32 {
    /// The reflected polynomial.
    static let polynomial: UInt32 = 0xEDB8_8320

    /// Eight 256-entry tables, one after another ("slicing by 8").
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[byte] = crc
        }
        for table in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC of `bytes`, continuing from `crc` (the CRC of the bytes before; 0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc = ~crc
            var index = 0
            let count = bytes.count
            while count - index >= 8 {
                let low = crc ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian
                let high = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
            return ~crc
        }
    }

    /// The CRC of `bytes`, continuing from `crc`.
    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0), continuing: crc) }) {
            return result
        }
        return checksum(Array(bytes), continuing: crc)
    }
}
