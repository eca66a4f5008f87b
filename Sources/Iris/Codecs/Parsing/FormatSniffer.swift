import Foundation

/// Recognises image formats (and things that are not images) from magic bytes.
enum FormatSniffer {
    /// The format of `data`; ``ImageFormat/unknown`` when nothing matches.
    static func format(of data: Data) -> ImageFormat { sniff(data).format }

    /// The format of `data` with APNG/WebP details.
    static func sniff(_ data: Data) -> SniffedFormat {
        let bytes = [UInt8](data.prefix(4096))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        let plain = SniffedFormat(format: .unknown, isAnimated: false, webPKind: nil)
        func only(_ format: ImageFormat) -> SniffedFormat { SniffedFormat(format: format, isAnimated: false, webPKind: nil) }

        if starts([0xFF, 0xD8, 0xFF]) { return only(.jpeg) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return SniffedFormat(format: .png, isAnimated: pngHasAnimationControl(data), webPKind: nil)
        }
        if ascii("GIF87a") || ascii("GIF89a") { return only(.gif) }
        if ascii("RIFF") && ascii("WEBP", at: 8) {
            var kind: SniffedFormat.WebPKind?
            var animated = false
            if ascii("VP8 ", at: 12) {
                kind = .lossy
            } else if ascii("VP8L", at: 12) {
                kind = .lossless
            } else if ascii("VP8X", at: 12) {
                kind = .extended
                animated = bytes.count > 20 && bytes[20] & 0x02 != 0
            }
            return SniffedFormat(format: .webp, isAnimated: animated, webPKind: kind)
        }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return only(.avif) }
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return only(.heic) }
        }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return only(.jpegXL) }
        if ascii("II*\0") || ascii("MM\0*") { return only(.tiff) }
        if ascii("BM"), bytes.count >= 14 { return only(.bmp) }
        // ICONDIR: reserved 0, type 1 (icon), at least one image, whose first entry is 16 bytes on.
        if starts([0, 0, 1, 0]), bytes.count >= 22, bytes[4] != 0 || bytes[5] != 0, bytes[9] == 0 { return only(.ico) }
        if ascii("%PDF") { return only(.pdf) }
        if let text = leadingText(bytes) {
            if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head")
                || text.hasPrefix("<body") || (text.hasPrefix("<!--") && text.contains("<html"))
            {
                return only(.html)
            }
            if text.contains("<svg") { return only(.svg) }
            if text.hasPrefix("<!doctype") || text.hasPrefix("<title") || text.hasPrefix("<div") || text.hasPrefix("<p>") {
                return only(.html)
            }
            if text.hasPrefix("{") || text.hasPrefix("[") { return only(.json) }
        }
        return plain
    }

    /// The first bytes as lower-cased text without a BOM or leading white space, if they are text.
    private static func leadingText(_ bytes: [UInt8]) -> String? {
        var slice = bytes[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        while let first = slice.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { slice = slice.dropFirst() }
        guard let first = slice.first, first == UInt8(ascii: "<") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return nil
        }
        return String(decoding: slice.prefix(1024), as: UTF8.self).lowercased()
    }

    /// Whether a PNG has an `acTL` chunk before its first `IDAT` (APNG).
    private static func pngHasAnimationControl(_ data: Data) -> Bool {
        var offset = data.startIndex + 8
        while offset + 8 <= data.endIndex {
            let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "acTL" { return true }
            if type == "IDAT" || type == "IEND" { return false }
            let (next, overflow) = offset.addingReportingOverflow(12 + length)
            if overflow || length < 0 { return false }
            offset = next
        }
        return false
    }
}

/// What the first bytes of a file say it is.
struct SniffedFormat: Sendable, Hashable {
    /// The container format.
    var format: ImageFormat
    /// Whether the container says it is animated (APNG, animated WebP; GIF is checked when decoded).
    var isAnimated: Bool
    /// For WebP: which kind of bitstream.
    var webPKind: WebPKind?

    /// The kinds of WebP bitstream.
    enum WebPKind: String, Sendable, Hashable {
        /// VP8: lossy.
        case lossy
        /// VP8L: lossless.
        case lossless
        /// VP8X: extended (alpha, animation, metadata).
        case extended
    }
}
