import Foundation

/// Where a served image comes from, as the URL named it.
package enum SourceReference: Sendable, Hashable, CustomStringConvertible {
    /// An `http` or `https` URL.
    case remote(URL)
    /// A `local://` path under the configured root (still unchecked: see ``SourcePolicy``).
    case local(String)

    /// Parses a source URL: `http://…`, `https://…` or `local:///path`.
    package init(parsing text: String) throws(ServeError) {
        if text.hasPrefix("local://") {
            self = .local(String(text.dropFirst("local://".count)))
            return
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw .badRequest("the source is not an http, https or local URL")
        }
        self = .remote(url)
    }

    /// The source as the URL named it.
    package var description: String {
        switch self {
        case .remote(let url): url.absoluteString
        case .local(let path): "local://" + path
        }
    }

    /// The last path component, without extension: the default download name.
    package var baseName: String {
        let path: String
        switch self {
        case .remote(let url): path = url.path
        case .local(let local): path = local
        }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let name = (last as NSString).deletingPathExtension
        return name.isEmpty ? "image" : name
    }
}
