import Foundation

/// Writes imgproxy URLs, the inverse of ``ImgproxyURL``: option segments and a source into a
/// path, signed with the first key of a ``URLSignature`` (or `unsafe` without one).
///
/// ```swift
/// let builder = ImgproxyURLBuilder(signature: URLSignature(keys: [key]))
/// builder.url(options: ["rs:fill:300:200", "g:sm"], source: "local:///cat.jpg", extension: "webp")
/// // "/<signature>/rs:fill:300:200/g:sm/plain/local:///cat.jpg@webp"
/// ```
public struct ImgproxyURLBuilder: Sendable {
    /// How the source URL is written in the path.
    public enum SourceEncoding: String, Sendable, Hashable, CaseIterable {
        /// `plain/%source@%extension`, percent-encoded where the path needs it (readable).
        case plain
        /// `%base64url_source.%extension`, split into 16-character segments.
        case base64
    }

    /// Signs the paths; `nil` or no keys: the signature segment is `unsafe`.
    public var signature: URLSignature?

    /// Makes a builder signing with `signature`'s first key.
    public init(signature: URLSignature?) { self.signature = signature }

    /// The part of the URL a signature covers: `/options…/source`, starting with `/`.
    public func path(
        options: [String], source: String, extension ext: String? = nil,
        encoding: SourceEncoding = .plain
    ) -> String {
        var path = options.map { "/" + $0 }.joined()
        switch encoding {
        case .plain:
            path += "/plain/" + Self.percentEncoded(source)
            if let ext, !ext.isEmpty { path += "@" + ext }
        case .base64:
            let encoded = Array(Base64URL.encode(Array(source.utf8)))
            path += stride(from: 0, to: encoded.count, by: 16)
                .map { "/" + String(encoded[$0..<min($0 + 16, encoded.count)]) }
                .joined()
            if let ext, !ext.isEmpty { path += "." + ext }
        }
        return path
    }

    /// The whole path of the URL: the signature of ``path(options:source:extension:encoding:)``
    /// (or `unsafe`) followed by it.
    public func url(
        options: [String], source: String, extension ext: String? = nil,
        encoding: SourceEncoding = .plain
    ) -> String {
        signed(path(options: options, source: source, extension: ext, encoding: encoding))
    }

    /// `path` (starting with `/`) behind its signature segment.
    public func signed(_ path: String) -> String {
        "/" + (signature?.sign(path) ?? "unsafe") + path
    }

    /// Keeps ASCII letters, digits, `-._~:/` and percent-encodes every other byte (`%`, `@`,
    /// `?`, `#`, spaces…), so the source survives as one path and its `@` never reads as an
    /// extension.
    static func percentEncoded(_ source: String) -> String {
        var result = ""
        for byte in source.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}
