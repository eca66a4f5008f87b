import Foundation
import Iris

/// Reads imgproxy's URL format into a ``ServeRequest``:
///
/// - `/%signature/%options/plain/%source_url@%extension`
/// - `/%signature/%options/%base64url_source.%extension` (without padding; may be split by `/`)
///
/// The signature covers everything after the signature segment, exactly as received. Without
/// ``URLSignature`` keys, or with `acceptsUnsigned` (development mode only), any signature
/// segment is taken (imgproxy's `unsafe` or `_`). With ``publicAccess`` (public mode), a URL
/// without a valid signature is served within what it allows; a signed one keeps every option.
package struct ImgproxyURL: Sendable {
    /// Checks signatures; `nil` or no keys: every URL is refused unless `acceptsUnsigned`.
    package var signature: URLSignature?
    /// Development mode: unsigned URLs are served.
    package var acceptsUnsigned: Bool
    /// Reads the options and presets.
    package var options: OptionParser
    /// Public mode: what an unsigned URL may ask for; `nil`: unsigned URLs are refused (unless
    /// `acceptsUnsigned`).
    package var publicAccess: PublicAccess?

    /// Makes a reader.
    package init(
        signature: URLSignature?, acceptsUnsigned: Bool, options: OptionParser = OptionParser(),
        publicAccess: PublicAccess? = nil
    ) {
        self.signature = signature
        self.acceptsUnsigned = acceptsUnsigned
        self.options = options
        self.publicAccess = publicAccess
    }

    /// The request of `path` (the URL's path as received, without the query), checked for its
    /// signature and expiry at `now`. The path after the signature is first repaired as
    /// imgproxy does (``repaired(_:)``), and the signature is checked on the repaired path, as
    /// imgproxy 4 checks it, or on the path as received, as imgproxy 3 checks it (the two
    /// differ for an empty options segment, `/%signature//plain/…`, which imgproxy 3 signs
    /// with it and imgproxy 4 without it: either signature is served, with no options).
    /// `defaults` are the options before the URL's own (client hints; not for a public URL,
    /// whose size is the ladder's alone).
    package func parse(
        _ path: String, now: Date = Date(), defaults: ProcessingOptions = ProcessingOptions()
    ) throws(ServeError) -> ServeRequest {
        guard path.hasPrefix("/") else { throw .badRequest("the path must start with /") }
        let afterSlash = path.dropFirst()
        guard let slash = afterSlash.firstIndex(of: "/") else { throw .badRequest("the URL has no source") }
        let signatureSegment = String(afterSlash[..<slash])
        let received = String(afterSlash[slash...])
        let signedPath = Self.repaired(received)
        guard signedPath.count > 1 else { throw .badRequest("the URL has no source") }
        let publicAccess = try access(signatureSegment, for: [signedPath, received])

        let segments = signedPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var optionSegments: [String] = []
        var index = 0
        // Options come first; each has a colon, which neither `plain` nor base64url contains.
        while index < segments.count, segments[index] != "plain", segments[index].contains(":") {
            optionSegments.append(segments[index])
            index += 1
        }
        if let publicAccess { optionSegments = try publicAccess.check(optionSegments) }
        var processing = try options.parse(optionSegments, defaults: publicAccess == nil ? defaults : ProcessingOptions())
        guard index < segments.count else { throw .badRequest("the URL has no source") }

        let (source, fileExtension) = try Self.source(of: segments[index...])
        if let fileExtension, !fileExtension.isEmpty, !processing.raw {
            guard let format = OutputFormat(extension: fileExtension) else {
                throw .badRequest("unknown extension \(quoted(fileExtension))")
            }
            processing.format = format
        }
        if let expires = processing.expires, Double(expires) < now.timeIntervalSince1970 {
            throw .notFound("the URL has expired")
        }
        if let publicAccess {
            try publicAccess.checkSource(source)
            let path = publicAccess.canonicalPath(options: optionSegments, source: source, fileExtension: fileExtension)
            return ServeRequest(source: source, options: processing, signedPath: path)
        }
        return ServeRequest(source: source, options: processing, signedPath: signedPath)
    }

    /// The source of the segments after the options, and the extension it ends with:
    /// `plain/%percent_encoded_url@%extension`, or `%base64url.%extension` (may be split by `/`).
    static func source(of segments: ArraySlice<String>) throws(ServeError) -> (SourceReference, fileExtension: String?) {
        if segments.first == "plain" {
            var raw = segments.dropFirst().joined(separator: "/")
            var ext: String?
            if let at = raw.lastIndex(of: "@") {
                let suffix = raw[raw.index(after: at)...]
                if !suffix.isEmpty, !suffix.contains("/"), suffix.allSatisfy({ $0.isLetter || $0.isNumber }) {
                    ext = String(suffix)
                    raw = String(raw[..<at])
                }
            }
            guard let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
                throw .badRequest("the plain source URL is not percent-encoded correctly")
            }
            return (try SourceReference(parsing: decoded), ext)
        }
        var joined = segments.joined()
        var ext: String?
        if let dot = joined.lastIndex(of: ".") {
            ext = String(joined[joined.index(after: dot)...])
            joined = String(joined[..<dot])
        }
        guard !joined.isEmpty, let data = Base64URL.decode(joined), let text = String(data: data, encoding: .utf8) else {
            throw .badRequest("the source is not base64url")
        }
        return (try SourceReference(parsing: text), ext)
    }

    /// The path after the signature as it was before a proxy or browser rewrote it, as
    /// imgproxy restores it: `%3A` in the options back to `:`, a plain source's `scheme:/host`
    /// (a `//` collapsed) back to `scheme://host` (`local:/path` to `local:///path`), and an
    /// empty options segment (`//plain/…`) dropped.
    package static func repaired(_ path: String) -> String {
        var rest = Substring(path)
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        let options: Substring, plain: Substring?
        if rest.hasPrefix("plain/") {
            options = ""
            plain = rest.dropFirst("plain/".count)
        } else if let marker = rest.range(of: "/plain/") {
            options = rest[..<marker.lowerBound]
            plain = rest[marker.upperBound...]
        } else {
            options = rest
            plain = nil
        }
        let fixedOptions = options.replacingOccurrences(of: "%3A", with: ":")
        guard var source = plain.map(String.init) else { return "/" + fixedOptions }
        // `scheme:/x` where x is not a slash: the `//` was collapsed.
        if let colon = source.range(of: ":/"), !source[..<colon.lowerBound].isEmpty,
            !source[..<colon.lowerBound].contains(where: { $0 == "/" || $0.isWhitespace })
        {
            let after = source[colon.upperBound...]
            if let next = after.first, next != "/" {
                let scheme = source[..<colon.lowerBound]
                source = scheme + (scheme == "local" ? ":///" : "://") + after
            }
        }
        return (fixedOptions.isEmpty ? "" : "/" + fixedOptions) + "/plain/" + source
    }

    /// `nil` when the URL has every option (a valid signature of one of `paths`, or development
    /// mode); the public access it is limited to when it is unsigned in public mode; else a 403.
    private func access(_ segment: String, for paths: [String]) throws(ServeError) -> PublicAccess? {
        if acceptsUnsigned { return nil }
        if let signature, !signature.keys.isEmpty, Set(paths).contains(where: { signature.isValid(segment, for: $0) }) { return nil }
        if let publicAccess { return publicAccess }
        guard let signature, !signature.keys.isEmpty else {
            throw .forbidden("unsigned URLs are refused (no signing key is configured)")
        }
        throw .forbidden("invalid signature")
    }
}
