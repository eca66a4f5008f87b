#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as bytes, with the kinds of address a source must not be on.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    public let bytes: [UInt8]

    /// An address of 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses `192.0.2.1` or `2001:db8::1` (brackets allowed around IPv6); `nil` for a name.
    public init?(_ text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// What kind of network the address is on.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Reachable on the internet.
        case global
        /// 127.0.0.0/8, ::1.
        case loopback
        /// 169.254.0.0/16 (cloud metadata lives here), fe80::/10.
        case linkLocal = "link-local"
        /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7, fec0::/10.
        case `private`
        /// 224.0.0.0/4, ff00::/8.
        case multicast
        /// 0.0.0.0/8, ::, 240.0.0.0/4 and broadcast: nothing to load from.
        case unspecified
    }

    /// The kind of this address; IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4
    /// address inside.
    public var kind: Kind {
        if bytes.count == 4 { return Self.kind(ipv4: bytes) }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.kind(ipv4: Array(b[12..<16])) }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4..<12].allSatisfy({ $0 == 0 }) {
            return Self.kind(ipv4: Array(b[12..<16]))
        }
        if b[0..<15].allSatisfy({ $0 == 0 }) {
            return b[15] == 1 ? .loopback : (b[15] == 0 ? .unspecified : .private)
        }
        if b[0] == 0xFF { return .multicast }
        if b[0] == 0xFE && (b[1] & 0xC0) == 0x80 { return .linkLocal }
        if b[0] == 0xFE && (b[1] & 0xC0) == 0xC0 { return .private }
        if (b[0] & 0xFE) == 0xFC { return .private }
        return .global
    }

    static func kind(ipv4 b: [UInt8]) -> Kind {
        switch b[0] {
        case 0: return .unspecified
        case 127: return .loopback
        case 10: return .private
        case 100 where (b[1] & 0xC0) == 64: return .private
        case 169 where b[1] == 254: return .linkLocal
        case 172 where (b[1] & 0xF0) == 16: return .private
        case 192 where b[1] == 168: return .private
        case 224...239: return .multicast
        case 240...255: return .unspecified
        default: return .global
        }
    }

    /// Dotted IPv4 or full hex IPv6.
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
