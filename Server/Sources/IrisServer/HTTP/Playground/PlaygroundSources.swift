import Foundation

/// The playground's list of sources: the files under the local root, as `local:///` URLs.
enum PlaygroundSources {
    /// `local:///path` of every regular, visible file under `root` (sub-folders included),
    /// sorted, at most `limit` of them; none without a root.
    static func list(root: URL?, limit: Int = 1000) -> [String] {
        guard let root else { return [] }
        let resolvedRoot = root.standardizedFileURL.resolvingSymlinksInPath()
        let prefix = resolvedRoot.path.hasSuffix("/") ? resolvedRoot.path : resolvedRoot.path + "/"
        guard
            let walker = FileManager.default.enumerator(
                at: resolvedRoot, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var sources: [String] = []
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            sources.append("local:///" + path.dropFirst(prefix.count))
            if sources.count == limit { break }
        }
        return sources.sorted()
    }
}
