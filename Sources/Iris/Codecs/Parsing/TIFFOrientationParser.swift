/// Reads the Orientation tag (0x0112) from IFD0 of a TIFF structure (the body of an EXIF block).
///
/// Every read is bounds-checked against the buffer it is given, and offsets are compared as
/// "length left" rather than added, so hostile offsets and counts cannot overflow or trap.
enum TIFFOrientationParser {
    /// The EXIF tag number of Orientation.
    static let orientationTag: UInt16 = 0x0112
    /// The TIFF field type SHORT (16-bit unsigned).
    static let shortType: UInt16 = 3
    /// Bytes in one IFD entry: tag, type, count, value or offset.
    static let entrySize = 12

    /// The orientation in `tiff` (which starts at the "II" or "MM" byte-order mark), or `nil`
    /// when the structure is malformed or the tag is absent, of the wrong type or out of 1–8.
    static func orientation(in tiff: UnsafeRawBufferPointer) -> Orientation? {
        var reader = ByteReader(tiff)
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (reader.u8(at: 0), reader.u8(at: 1)) {
        case (0x49, 0x49): bigEndian = false  // "II": Intel, little-endian
        case (0x4D, 0x4D): bigEndian = true  // "MM": Motorola, big-endian
        default: return nil
        }
        reader.bigEndian = bigEndian
        guard reader.u16(at: 2) == 42, let ifdOffset32 = reader.u32(at: 4) else { return nil }
        let ifdOffset = Int(ifdOffset32)
        // The IFD needs its 2-byte entry count inside the buffer (and it cannot overlap the header).
        guard ifdOffset >= 8, ifdOffset <= tiff.count - 2, let count16 = reader.u16(at: ifdOffset) else {
            return nil
        }
        let entryCount = Int(count16)
        let entriesStart = ifdOffset + 2
        // Every entry the count announces must be present; a count past the end means corruption.
        guard entryCount <= (tiff.count - entriesStart) / entrySize else { return nil }
        for index in 0..<entryCount {
            let entry = entriesStart + index * entrySize
            guard reader.u16(at: entry) == orientationTag else { continue }
            guard reader.u16(at: entry + 2) == shortType, reader.u32(at: entry + 4) == 1,
                let value = reader.u16(at: entry + 8)
            else { return nil }
            // A SHORT with count 1 sits left-justified in the 4-byte value field in both byte orders.
            return Orientation(rawValue: Int(value))
        }
        return nil
    }
}
