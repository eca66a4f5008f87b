import Crypto
import Foundation
import IrisServerCore

/// The strong validator of a result, and matching it against `If-None-Match`.
enum ETag {
    /// The validator: the service's version, the format, the path, the hints that shaped it,
    /// and the source's bytes.
    static func of(_ request: ServeRequest, format: String, data: Data) -> String {
        let options = request.options
        var hash = SHA256()
        hash.update(data: Array("iris-server \(IrisServerInfo.version)\n\(format)\n\(request.signedPath)\ndpr \(options.dpr)\n".utf8))
        if options.width != 0 { hash.update(data: Array("width \(options.width)\n".utf8)) }
        hash.update(data: Array(SHA256.hash(data: data)))
        return "\"" + Base64URL.encode(Array(hash.finalize()).prefix(18)) + "\""
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let value = candidate.trimmingCharacters(in: .whitespaces)
            return value == "*" || value == etag || value == "W/" + etag
        }
    }
}
