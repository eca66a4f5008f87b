import Foundation
@testable import Iris
import IrisTestSupport

/// Builds EXIF (TIFF) blocks and puts them into JPEG, PNG and WebP bytes, for tests.
///
/// The container helpers work on any valid encoded file, not only on the synthetic minimal
/// containers: they insert one segment or chunk and fix up what the container needs
/// (PNG CRC, WebP VP8X flag and RIFF size).
enum EXIFBuilder {
    enum ByteOrder: CaseIterable, CustomStringConvertible {
        case littleEndian, bigEndian
        var description: String { self == .littleEndian ? "II" : "MM" }
    }

    /// One IFD entry: tag, field type, count, and the four bytes of the value field as written
    /// (for a SHORT with count 1 only the first two matter).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: UInt32
        /// Whether `value` holds a left-justified SHORT (written as 2 bytes + 2 zero bytes).
        var isShort: Bool
    }

    /// A TIFF structure (the body of an EXIF block, without "Exif\0\0") whose IFD0 holds an
    /// ImageWidth, an ImageLength, the Orientation and an ExifIFD pointer entry, in tag order.
    ///
    /// `orientation` is written as is, so tests can write 0 or 9; `type`, `count` and
    /// `entryCount` override the Orientation entry's type and count and IFD0's entry count.
    static func tiff(
        orientation: UInt16, byteOrder: ByteOrder = .littleEndian,
        type: UInt16 = 3, count: UInt32 = 1, entryCount: UInt16? = nil, ifdOffset: UInt32 = 8
    ) -> [UInt8] {
        let entries = [
            Entry(tag: 0x0100, type: 4, count: 1, value: 640, isShort: false),  // ImageWidth LONG
            Entry(tag: 0x0101, type: 4, count: 1, value: 480, isShort: false),  // ImageLength LONG
            Entry(tag: 0x0112, type: type, count: count, value: UInt32(orientation), isShort: true),
            Entry(tag: 0x8769, type: 4, count: 1, value: 0, isShort: false),  // ExifIFD pointer
        ]
        return tiff(entries: entries, byteOrder: byteOrder, entryCount: entryCount, ifdOffset: ifdOffset)
    }

    /// A TIFF structure with IFD0 holding `entries` (written at offset 8, whatever `ifdOffset`
    /// the header claims), followed by a zero next-IFD offset.
    static func tiff(entries: [Entry], byteOrder: ByteOrder, entryCount: UInt16? = nil, ifdOffset: UInt32 = 8) -> [UInt8] {
        var out: [UInt8] = byteOrder == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        let big = byteOrder == .bigEndian
        out += bytes16(42, big: big)
        out += bytes32(ifdOffset, big: big)
        out += bytes16(entryCount ?? UInt16(entries.count), big: big)
        for entry in entries {
            out += bytes16(entry.tag, big: big)
            out += bytes16(entry.type, big: big)
            out += bytes32(entry.count, big: big)
            if entry.isShort {
                out += bytes16(UInt16(truncatingIfNeeded: entry.value), big: big) + [0, 0]
            } else {
                out += bytes32(entry.value, big: big)
            }
        }
        out += [0, 0, 0, 0]
        return out
    }

    /// "Exif\0\0" followed by `tiff`: the payload of a JPEG APP1 segment.
    static func exifPayload(_ tiff: [UInt8]) -> [UInt8] {
        [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] + tiff
    }

    // MARK: JPEG

    /// `jpeg` with an EXIF APP1 segment holding `tiff` inserted right after SOI.
    static func jpeg(_ jpeg: Data, insertingEXIF tiff: [UInt8]) -> Data {
        let bytes = [UInt8](jpeg)
        precondition(bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8, "not a JPEG")
        return Data(bytes[0..<2] + app1(tiff) + bytes[2...])
    }

    /// An APP1 segment (marker, length, "Exif\0\0", `tiff`).
    static func app1(_ tiff: [UInt8]) -> [UInt8] {
        let payload = exifPayload(tiff)
        return [0xFF, 0xE1] + bytes16(UInt16(payload.count + 2), big: true) + payload
    }

    /// A minimal JPEG-like marker sequence SOI, APP1 (EXIF), SOS, EOI: enough for the parser.
    static func minimalJPEG(tiff: [UInt8]) -> Data {
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        return Data([0xFF, 0xD8] + app1(tiff) + sos + [0x12, 0x34, 0xFF, 0xD9])
    }

    // MARK: PNG

    /// `png` with an `eXIf` chunk holding `tiff` inserted right after IHDR.
    static func png(_ png: Data, insertingEXIF tiff: [UInt8]) -> Data {
        PNGBytes.inserting(PNGBytes.chunk("eXIf", tiff), afterIHDROf: png)
    }

    /// A PNG-like chunk sequence signature, IHDR (1×1 grey), eXIf, IEND: enough for the parser.
    static func minimalPNG(tiff: [UInt8]) -> Data {
        let ihdr: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]
        return Data(PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr) + PNGBytes.chunk("eXIf", tiff) + PNGBytes.chunk("IEND", []))
    }

    // MARK: WebP

    /// A RIFF chunk: FourCC, little-endian size, payload, and a padding byte when the size is odd.
    static func riffChunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        let code = Array(fourCC.utf8)
        precondition(code.count == 4, "FourCCs are four characters")
        return code + bytes32(UInt32(payload.count), big: false) + payload + (payload.count & 1 == 1 ? [0] : [])
    }

    /// A VP8X chunk for a canvas of `width`×`height` with the given feature flags.
    static func vp8x(width: Int, height: Int, flags: UInt8) -> [UInt8] {
        let w = UInt32(width - 1), h = UInt32(height - 1)
        let payload: [UInt8] = [
            flags, 0, 0, 0,
            UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF),
            UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF),
        ]
        return riffChunk("VP8X", payload)
    }

    /// Feature flags of VP8X.
    static let exifFlag: UInt8 = 0x08
    static let alphaFlag: UInt8 = 0x10

    /// "RIFF", the size of everything after it, "WEBP", then `chunks`.
    static func riff(_ chunks: [UInt8]) -> Data {
        Data(Array("RIFF".utf8) + bytes32(UInt32(chunks.count + 4), big: false) + Array("WEBP".utf8) + chunks)
    }

    /// A WebP-like RIFF with VP8X (EXIF flag set) then an EXIF chunk: enough for the parser.
    ///
    /// `exifHeader` puts "Exif\0\0" before the TIFF structure, as some writers do.
    static func minimalWebP(tiff: [UInt8], exifHeader: Bool = false, before: [UInt8] = []) -> Data {
        riff(
            vp8x(width: 3, height: 2, flags: exifFlag) + before
                + riffChunk("EXIF", exifHeader ? exifPayload(tiff) : tiff))
    }

    /// `webp` (simple lossy, simple lossless or extended) with an EXIF chunk holding `tiff`.
    ///
    /// A simple file gets a VP8X chunk first, with the canvas size read from its bitstream; the
    /// EXIF flag is set, the EXIF chunk goes at the end (where the container spec puts it) and
    /// the RIFF size is rewritten.
    static func webp(_ webp: Data, addingEXIF tiff: [UInt8]) -> Data {
        let bytes = [UInt8](webp)
        precondition(
            bytes.count >= 20 && Array(bytes[0..<4]) == Array("RIFF".utf8)
                && Array(bytes[8..<12]) == Array("WEBP".utf8), "not a WebP")
        let riffEnd = min(bytes.count, 8 + Int(le32(bytes, 4)))
        var chunks = Array(bytes[12..<riffEnd])
        let first = String(decoding: chunks[0..<4], as: UTF8.self)
        let payload = Array(chunks[8...])
        switch first {
        case "VP8X":
            chunks[8] |= exifFlag
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            let width = Int(le16(payload, 6) & 0x3FFF), height = Int(le16(payload, 8) & 0x3FFF)
            chunks = vp8x(width: width, height: height, flags: exifFlag) + chunks
        case "VP8L":
            // Signature 0x2F, then 14 bits width-1, 14 bits height-1, 1 bit alpha.
            let bits = le32(payload, 1)
            let width = Int(bits & 0x3FFF) + 1, height = Int(bits >> 14 & 0x3FFF) + 1
            let alpha = bits >> 28 & 1 == 1
            chunks = vp8x(width: width, height: height, flags: exifFlag | (alpha ? alphaFlag : 0)) + chunks
        default:
            preconditionFailure("unexpected first WebP chunk \(first)")
        }
        return riff(chunks + riffChunk("EXIF", tiff))
    }

    // MARK: Bytes

    static func bytes16(_ value: UInt16, big: Bool) -> [UInt8] {
        let hi = UInt8(value >> 8), lo = UInt8(value & 0xFF)
        return big ? [hi, lo] : [lo, hi]
    }

    static func bytes32(_ value: UInt32, big: Bool) -> [UInt8] {
        let b = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return big ? b : b.reversed()
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
