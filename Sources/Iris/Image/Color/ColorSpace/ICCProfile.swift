import Foundation

/// An embedded ICC profile: its bytes, as found in the file, and what its header and
/// description tag say (ICC.1:2022, section 7).
///
/// Made by the decoders from JPEG APP2 `ICC_PROFILE` segments, a PNG `iCCP` chunk or a WebP
/// `ICCP` chunk; bytes that do not start with a valid ICC header are not a profile
/// (``init(data:)`` returns `nil`) and the image is treated as untagged, as browsers do.
/// Two profiles are equal when their bytes are.
public struct ICCProfile: Sendable, Hashable, CustomStringConvertible {
    /// The colour model of the data a profile describes (header bytes 16–19).
    public enum ColorModel: Sendable, Hashable {
        /// Red, green, blue.
        case rgb
        /// One grey channel.
        case gray
        /// Cyan, magenta, yellow, black (print).
        case cmyk
        /// Any other (Lab, XYZ, n-colour…), by its four-character signature.
        case other(String)
    }

    /// The profile's bytes.
    public let data: Data
    /// The data colour space: RGB, grey, CMYK or another.
    public let colorModel: ColorModel
    /// The profile class signature (`mntr` for displays, `prtr` for printers, `spac`…).
    public let profileClass: String
    /// Major and minor version (2.1, 4.3…).
    public let version: (major: Int, minor: Int)
    /// The description tag (`desc`: ASCII in version 2, the first `mluc` record in version 4),
    /// such as "Display P3" or "Adobe RGB (1998)".
    public let name: String?
    /// Identifies the profile: its MD5 profile ID (header bytes 84–99) as `md5:` and hex when
    /// it has one, else `fnv1a64:` and a 64-bit FNV-1a hash of the bytes.
    public let identity: String

    /// Reads `data` as an ICC profile; `nil` when it is shorter than the 128-byte header,
    /// lacks the `acsp` signature, or states a size larger than the data.
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 132, Self.signature(bytes, at: 36) == "acsp" else { return nil }
        let size = Int(Self.u32(bytes, at: 0))
        guard size >= 132, size <= bytes.count else { return nil }
        let bytesUsed = Array(bytes[0..<size])
        self.data = Data(bytesUsed)
        colorModel =
            switch Self.signature(bytes, at: 16) {
            case "RGB ": .rgb
            case "GRAY": .gray
            case "CMYK": .cmyk
            case let other: .other(other)
            }
        profileClass = Self.signature(bytes, at: 12)
        version = (Int(bytes[8]), Int(bytes[9] >> 4))
        name = ICCDescriptionTag.read(in: bytesUsed)
        let profileID = bytes[84..<100]
        if profileID.contains(where: { $0 != 0 }) {
            identity = "md5:" + profileID.map { String(format: "%02x", $0) }.joined()
        } else {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytesUsed { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            identity = String(format: "fnv1a64:%016llx", hash)
        }
    }

    /// Whether both are the same bytes.
    public static func == (lhs: ICCProfile, rhs: ICCProfile) -> Bool { lhs.data == rhs.data }

    /// Hashes the profile's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    /// The name, model, version, size and identity: `ICC "Display P3" (rgb, v4.4, 604 bytes, …)`.
    public var description: String {
        "\"\(name ?? "unnamed")\" (\(colorModel), v\(version.major).\(version.minor), \(data.count) bytes, \(identity))"
    }

    /// A big-endian 32-bit number at `offset`.
    static func u32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Four bytes at `offset` as text (a signature such as `RGB ` or `desc`).
    static func signature(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }
}
