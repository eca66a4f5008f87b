import Foundation

/// Reads a profile's description (`desc` tag) from its tag table: the ASCII of a version 2
/// `textDescriptionType`, or the first record of a version 4 `multiLocalizedUnicodeType`
/// (`mluc`, UTF-16 big-endian). Anything out of bounds reads as no description.
enum ICCDescriptionTag {
    /// The description in `profile` (the whole profile, header first), if readable.
    static func read(in profile: [UInt8]) -> String? {
        guard profile.count >= 132 else { return nil }
        let count = Int(ICCProfile.u32(profile, at: 128))
        guard count <= (profile.count - 132) / 12 else { return nil }
        for index in 0..<count {
            let entry = 132 + index * 12
            guard ICCProfile.signature(profile, at: entry) == "desc" else { continue }
            let offset = Int(ICCProfile.u32(profile, at: entry + 4))
            let size = Int(ICCProfile.u32(profile, at: entry + 8))
            guard offset >= 0, size >= 12, offset <= profile.count, size <= profile.count - offset else { return nil }
            return text(Array(profile[offset..<(offset + size)]))
        }
        return nil
    }

    /// The text of one `desc` or `mluc` tag element.
    private static func text(_ tag: [UInt8]) -> String? {
        switch ICCProfile.signature(tag, at: 0) {
        case "desc":
            let length = Int(ICCProfile.u32(tag, at: 8))
            guard length > 0, length <= tag.count - 12 else { return nil }
            let ascii = tag[12..<(12 + length)].prefix { $0 != 0 }
            return trimmed(String(decoding: ascii, as: UTF8.self))
        case "mluc":
            guard tag.count >= 28, ICCProfile.u32(tag, at: 8) > 0 else { return nil }
            let length = Int(ICCProfile.u32(tag, at: 20)), offset = Int(ICCProfile.u32(tag, at: 24))
            guard offset <= tag.count, length <= tag.count - offset else { return nil }
            var units: [UInt16] = []
            var i = offset
            while i + 1 < offset + length {
                units.append(UInt16(tag[i]) << 8 | UInt16(tag[i + 1]))
                i += 2
            }
            return trimmed(String(decoding: units, as: UTF16.self).replacingOccurrences(of: "\0", with: ""))
        default:
            return nil
        }
    }

    private static func trimmed(_ text: String) -> String? {
        let result = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.isEmpty ? nil : result
    }
}
