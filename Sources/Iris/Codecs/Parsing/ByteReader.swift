/// Bounds-checked integer reads from a raw buffer in a chosen byte order.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var bigEndian: Bool

    init(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool = true) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// Whether `length` bytes starting at `offset` lie inside the buffer (overflow-safe).
    @inline(__always)
    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    @inline(__always)
    func u8(at offset: Int) -> UInt8? {
        has(1, at: offset) ? bytes[offset] : nil
    }

    @inline(__always)
    func u16(at offset: Int) -> UInt16? {
        guard has(2, at: offset) else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    @inline(__always)
    func u32(at offset: Int) -> UInt32? {
        guard has(4, at: offset) else { return nil }
        let a = UInt32(bytes[offset]), b = UInt32(bytes[offset + 1])
        let c = UInt32(bytes[offset + 2]), d = UInt32(bytes[offset + 3])
        return bigEndian ? (a << 24 | b << 16 | c << 8 | d) : (d << 24 | c << 16 | b << 8 | a)
    }

    /// Whether the bytes at `offset` equal `expected`.
    @inline(__always)
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard has(expected.count, at: offset) else { return false }
        for (index, byte) in expected.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    /// A sub-buffer of `length` bytes at `offset`; the caller has checked `has(length, at:)`.
    @inline(__always)
    func slice(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    }
}
