import Crypto
import Foundation

/// One key and its salt: imgproxy's `IMGPROXY_KEY` / `IMGPROXY_SALT`, given hex-encoded.
public struct SigningKey: Sendable, Hashable {
    /// The HMAC key.
    public let key: [UInt8]
    /// Prepended to the path before signing.
    public let salt: [UInt8]

    /// A key and salt from their hex forms; `nil` when either is not hex or the key is empty.
    public init?(keyHex: String, saltHex: String) {
        guard let key = Hex.decode(keyHex), let salt = Hex.decode(saltHex), !key.isEmpty else { return nil }
        self.key = key
        self.salt = salt
    }
}

/// Signs and checks imgproxy URL signatures: HMAC-SHA256 over salt + the path after the
/// signature segment (exactly as received), base64url without padding, optionally truncated.
///
/// Several keys may be configured (rotation): a signature made by any of them is accepted.
public struct URLSignature: Sendable {
    /// The accepted keys, the first one signs.
    public let keys: [SigningKey]
    /// Bytes of the HMAC kept in a signature (imgproxy's `IMGPROXY_SIGNATURE_SIZE`), 1…32.
    public let size: Int

    /// Makes a signer and checker over `keys`, keeping `size` bytes (32: the whole HMAC).
    public init(keys: [SigningKey], size: Int = 32) {
        self.keys = keys
        self.size = min(32, max(1, size))
    }

    /// The signature of `path` (starting with `/`, everything after the signature segment) with
    /// the first key.
    public func sign(_ path: String) -> String? {
        guard let first = keys.first else { return nil }
        return Base64URL.encode(Self.digest(path, with: first).prefix(size))
    }

    /// Whether `signature` is the signature of `path` under one of the keys, compared in
    /// constant time (every key is tried, whatever matched).
    public func isValid(_ signature: String, for path: String) -> Bool {
        guard let given = Base64URL.decode(signature), given.count == size else { return false }
        var matched = false
        for key in keys {
            let expected = Self.digest(path, with: key).prefix(size)
            if Self.constantTimeEqual(Array(expected), Array(given)) { matched = true }
        }
        return matched
    }

    static func digest(_ path: String, with key: SigningKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key.key))
        hmac.update(data: key.salt)
        hmac.update(data: Array(path.utf8))
        return Array(hmac.finalize())
    }

    /// Equal lengths and bytes, looking at every byte whatever differs.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
