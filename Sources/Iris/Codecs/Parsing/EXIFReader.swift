import Foundation

/// Reads the EXIF orientation tag with a small bounds-checked parser.
///
/// Finds the EXIF block in its container (JPEG APP1 segment, WebP `EXIF` chunk; a PNG's `eXIf`
/// chunk is found by the PNG chunk walk, `PNGChunks`) and reads tag 0x0112 from IFD0 of the TIFF structure inside. Nothing is copied: the
/// parser walks the bytes in place. Any malformed input — truncated, hostile lengths or offsets,
/// a wrong tag type, a value outside 1–8 — gives `nil`; no input can make it trap.
enum EXIFReader {
    /// The orientation a JPEG's EXIF APP1 segment stores, or `nil`.
    static func orientation(inJPEG data: Data) -> Orientation? { read(data, jpegOrientation) }

    /// The orientation a WebP's `EXIF` chunk stores, or `nil`.
    static func orientation(inWebP data: Data) -> Orientation? { read(data, webpOrientation) }

    /// The Orientation tag of a TIFF file's first directory (the TIFF structure EXIF borrows),
    /// or `nil`.
    static func orientation(inTIFF data: Data) -> Orientation? {
        read(data) { TIFFOrientationParser.orientation(in: $0.bytes) }
    }

    /// `parse` over the bytes of `data`.
    private static func read(_ data: Data, _ parse: (ByteReader) -> Orientation?) -> Orientation? {
        // `withUnsafeBytes` starts at the slice's first byte, whatever the slice's indices are.
        data.withUnsafeBytes { parse(ByteReader($0)) }
    }

    /// "Exif\0\0": the header of an EXIF APP1 payload (and optionally of a WebP EXIF chunk).
    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// The TIFF structure in an EXIF block that may or may not begin with "Exif\0\0".
    static func tiffOrientation(in block: UnsafeRawBufferPointer) -> Orientation? {
        let reader = ByteReader(block)
        if reader.matches(exifHeader, at: 0) {
            return TIFFOrientationParser.orientation(in: reader.slice(6, block.count - 6))
        }
        return TIFFOrientationParser.orientation(in: block)
    }

    // MARK: JPEG

    /// Walks JPEG markers from SOI to the first EXIF APP1 segment, stopping at SOS or EOI.
    static func jpegOrientation(_ reader: ByteReader) -> Orientation? {
        let count = reader.bytes.count
        guard reader.u8(at: 0) == 0xFF, reader.u8(at: 1) == 0xD8 else { return nil }
        var position = 2
        while position < count {
            guard reader.bytes[position] == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            while position < count, reader.bytes[position] == 0xFF { position += 1 }
            guard let marker = reader.u8(at: position) else { return nil }
            position += 1
            switch marker {
            case 0xD9, 0xDA: return nil  // EOI, SOS: no EXIF before the image data
            case 0x01, 0xD0...0xD8: continue  // TEM, RSTn, SOI: markers without a length
            case 0x00: return nil  // a stuffed zero is not a marker here
            default: break
            }
            guard let length16 = reader.u16(at: position) else { return nil }
            let length = Int(length16)  // counts its own two bytes
            guard length >= 2, reader.has(length, at: position) else { return nil }
            if marker == 0xE1 {  // APP1: EXIF, or XMP and others
                let payload = reader.slice(position + 2, length - 2)
                if ByteReader(payload).matches(exifHeader, at: 0) {
                    return TIFFOrientationParser.orientation(in: ByteReader(payload).slice(6, payload.count - 6))
                }
            }
            position += length
        }
        return nil
    }

    // MARK: WebP

    /// Walks the RIFF chunks of a WebP to the `EXIF` chunk (chunks are padded to even sizes).
    static func webpOrientation(_ reader: ByteReader) -> Orientation? {
        var little = reader
        little.bigEndian = false
        guard little.matches([0x52, 0x49, 0x46, 0x46], at: 0),  // "RIFF"
            little.matches([0x57, 0x45, 0x42, 0x50], at: 8),  // "WEBP"
            let riffSize = little.u32(at: 4)
        else { return nil }
        // The RIFF size counts from byte 8; never read past it or past the data.
        let end = min(little.bytes.count, 8 &+ Int(riffSize))
        let riff = ByteReader(little.slice(0, end), bigEndian: false)
        var position = 12
        while riff.has(8, at: position), let size32 = riff.u32(at: position + 4) {
            let size = Int(size32)
            guard riff.has(size, at: position + 8) else { return nil }
            if riff.matches([0x45, 0x58, 0x49, 0x46], at: position) {  // "EXIF"
                return tiffOrientation(in: riff.slice(position + 8, size))
            }
            // A chunk of odd size is followed by one padding byte.
            position += 8 + size + (size & 1)
        }
        return nil
    }
}
