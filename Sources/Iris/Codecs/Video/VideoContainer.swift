import Foundation

extension ImageFormat {
    /// MPEG-4 video (ISO base media file format: `.mp4`, `.m4v`, 3GPP). Read as a poster frame
    /// and an animation by the video decoder where there is one (FFmpeg on Linux).
    public static let mp4 = ImageFormat("mp4", name: "MP4", fileExtension: "mp4")
    /// QuickTime movie (`.mov`).
    public static let quickTime = ImageFormat("quickTime", name: "QuickTime", fileExtension: "mov")
    /// WebM video (Matroska with the `webm` document type).
    public static let webm = ImageFormat("webm", name: "WebM", fileExtension: "webm")
    /// Matroska video (`.mkv`).
    public static let matroska = ImageFormat("matroska", name: "Matroska", fileExtension: "mkv")

    /// The video container formats: what a video decoder reads as one more kind of image.
    public static let videoFormats: Set<ImageFormat> = [.mp4, .quickTime, .webm, .matroska]
}

/// Recognises video containers by their first bytes, and how long they say they are.
///
/// ISO base media files (MP4, MOV) start with an `ftyp` box whose brands name the kind; HEIC and
/// AVIF use the same box, with brands of their own, and are left to the image sniffer. Matroska
/// and WebM start with an EBML header whose `DocType` says which.
enum VideoContainer {
    /// Major brands of MPEG-4 and 3GPP video (compatible brands decide only when the major brand
    /// is not an image one).
    private static let mp4Brands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso8", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP",
        "3gp4", "3gp5", "3gp6", "3g2a", "dash", "mmp4", "f4v ", "MSNV", "XAVC",
    ]
    /// Brands of the still-image formats that share the box structure (HEIF, AVIF).
    private static let imageBrands: Set<String> = [
        "avif", "avis", "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "mif2",
    ]

    /// The video format of `data`, or `nil` when it is not a video container.
    static func format(of data: Data) -> ImageFormat? {
        let bytes = [UInt8](data.prefix(64))
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let major = String(decoding: bytes[8..<12], as: UTF8.self)
            if imageBrands.contains(major) { return nil }
            if major == "qt  " { return .quickTime }
            if mp4Brands.contains(major) { return .mp4 }
            return nil
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header's DocType ("webm" or "matroska") comes within its first bytes.
            let header = [UInt8](data.prefix(128))
            if header.firstRange(of: Array("webm".utf8)) != nil { return .webm }
            if header.firstRange(of: Array("matroska".utf8)) != nil { return .matroska }
        }
        return nil
    }

    /// The length the file's own structure declares, when it says more than `data` holds: the
    /// sum of an MP4's top-level boxes, or the end of a Matroska segment of known size. `nil` when
    /// the file is complete (or does not say).
    static func declaredLengthBeyond(_ data: Data) -> Int? {
        guard let format = format(of: data) else { return nil }
        let declared = format == .mp4 || format == .quickTime ? boxesLength(data) : segmentEnd(data)
        guard let declared, declared > data.count else { return nil }
        return declared
    }

    /// Walks the top-level boxes (32-bit sizes, 64-bit `largesize`, 0 = to the end) and returns
    /// where the last one says it ends.
    private static func boxesLength(_ data: Data) -> Int? {
        var offset = 0
        let count = data.count
        let start = data.startIndex
        func readUInt(_ at: Int, _ length: Int) -> UInt64? {
            guard at >= 0, at + length <= count else { return nil }
            var value: UInt64 = 0
            for index in 0..<length { value = value << 8 | UInt64(data[start + at + index]) }
            return value
        }
        while offset < count {
            guard let size32 = readUInt(offset, 4) else { return offset + 8 }
            var size = Int(size32)
            if size32 == 1 {
                guard let size64 = readUInt(offset + 8, 8), size64 < UInt64(Int.max / 2) else { return offset + 16 }
                size = Int(size64)
            } else if size32 == 0 {
                return nil  // to the end of the file
            }
            guard size >= 8 else { return nil }  // not a box structure we can follow
            offset += size
        }
        return offset
    }

    /// The end of the Matroska `Segment` element when its size is known.
    private static func segmentEnd(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(4096))
        var offset = 0
        /// An EBML variable-length integer at `offset`: its value (marker removed) and length;
        /// `unknown` when every value bit is set (an unknown size).
        func vint(_ at: Int, keepsMarker: Bool) -> (value: UInt64, length: Int, unknown: Bool)? {
            guard at < bytes.count, bytes[at] != 0 else { return nil }
            let length = bytes[at].leadingZeroBitCount + 1
            guard at + length <= bytes.count else { return nil }
            var value = UInt64(keepsMarker ? bytes[at] : bytes[at] & (0xFF >> length))
            var allOnes = value == UInt64(0xFF >> length)
            for index in 1..<length {
                value = value << 8 | UInt64(bytes[at + index])
                allOnes = allOnes && bytes[at + index] == 0xFF
            }
            return (value, length, allOnes)
        }
        // The EBML header, then the Segment (ID 0x18538067).
        for _ in 0..<2 {
            guard let id = vint(offset, keepsMarker: true), let size = vint(offset + id.length, keepsMarker: false) else { return nil }
            let body = offset + id.length + size.length
            if id.value == 0x1853_8067 {
                guard !size.unknown, size.value < UInt64(Int.max / 2) else { return nil }
                return body + Int(size.value)
            }
            guard !size.unknown, size.value < 4096 else { return nil }
            offset = body + Int(size.value)
        }
        return nil
    }
}
