import Foundation

/// Which sources the service may load, decided before any connection: an allow-list of URL
/// prefixes, a root folder for `local://`, and the kinds of address a host may resolve to
/// (checked again on every redirect).
public struct SourcePolicy: Sendable {
    /// Remote sources must start with one of these (`https://images.example.com/`); empty:
    /// any `http` or `https` URL.
    public var allowedPrefixes: [String]
    /// The folder `local://` paths are read under; `nil`: `local://` is refused.
    public var localRoot: URL?
    /// The kinds of address a source host may resolve to. Only `.global` by default: loopback,
    /// link-local, private, multicast and unspecified addresses are refused.
    public var allowedAddressKinds: Set<IPAddress.Kind>

    /// Makes a policy; the defaults allow any public http(s) source and no local files.
    public init(allowedPrefixes: [String] = [], localRoot: URL? = nil, allowedAddressKinds: Set<IPAddress.Kind> = [.global]) {
        self.allowedPrefixes = allowedPrefixes
        self.localRoot = localRoot
        self.allowedAddressKinds = allowedAddressKinds
    }

    /// Refuses a remote URL outside the allow-list: the source, and again every redirect it
    /// leads to (each also judged by its addresses).
    package func checkAllowed(_ url: URL) throws(ServeError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .forbidden("the source scheme is not allowed")
        }
        guard allowedPrefixes.isEmpty || allowedPrefixes.contains(where: { url.absoluteString.hasPrefix($0) }) else {
            throw .forbidden("the source is not on the allow-list")
        }
    }

    /// Refuses a host whose resolved addresses include one of a kind not allowed (a name that
    /// resolves to both a public and a private address is refused).
    package func checkAddresses(_ addresses: [IPAddress]) throws(ServeError) {
        guard !addresses.isEmpty else { throw .notFound("the source host does not resolve") }
        for address in addresses where !allowedAddressKinds.contains(address.kind) {
            throw .forbidden("the source resolves to a \(address.kind.rawValue) address")
        }
    }

    /// The file of a `local://` path, which must lie under ``localRoot`` once `..` and
    /// symbolic links are resolved.
    package func localFile(_ path: String) throws(ServeError) -> URL {
        guard let localRoot else { throw .forbidden("local sources are not enabled") }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !path.contains("\0"), !components.isEmpty,
            !components.contains(where: { $0 == ".." || $0 == "." })
        else {
            throw .forbidden("the local path leaves the root")
        }
        let root = localRoot.standardizedFileURL.resolvingSymlinksInPath()
        var file = root
        for component in components { file.appendPathComponent(String(component)) }
        let resolved = file.resolvingSymlinksInPath()
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard resolved.path.hasPrefix(rootPath) else { throw .forbidden("the local path leaves the root") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .notFound("the source was not found")
        }
        return resolved
    }
}
