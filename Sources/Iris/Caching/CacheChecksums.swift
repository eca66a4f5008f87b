/// 128-bit FNV-1a: names disk-cache files after their keys (not cryptographic; the file also
/// stores the key, so a collision is detected rather than served).
enum FNV1a128 {
    static let offsetBasis: UInt128 = 0x6C62_272E_07BB_0142_62B8_2175_6295_C58D
    static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B

    /// The hash of `bytes`.
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt128 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt128(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The hash of `string`'s UTF-8 as 32 lowercase hex digits.
    static func hexHash(_ string: String) -> String {
        let value = hash(string.utf8)
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 32 - text.count) + text
    }
}
