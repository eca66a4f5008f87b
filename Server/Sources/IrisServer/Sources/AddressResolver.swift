import IrisServerCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a host name into addresses, so the source policy can judge them before connecting.
public protocol AddressResolving: Sendable {
    /// Every address `host` resolves to (an IP literal resolves to itself).
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system resolver (`getaddrinfo`), run on NIO's blocking-I/O thread pool, never on a
/// cooperative thread.
public struct SystemAddressResolver: AddressResolving {
    /// Makes a resolver.
    public init() {}

    /// Every address `host` resolves to.
    public func addresses(of host: String) async throws -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive { Self.resolve(host) }
    }

    static func resolve(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let sockaddr = info.pointee.ai_addr {
                switch Int32(info.pointee.ai_family) {
                case AF_INET:
                    let bytes = sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                    }
                    if let address = IPAddress(bytes: bytes) { addresses.append(address) }
                case AF_INET6:
                    let bytes = sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                    }
                    if let address = IPAddress(bytes: bytes) { addresses.append(address) }
                default: break
                }
            }
            cursor = info.pointee.ai_next
        }
        return Array(Set(addresses)).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }
}
