import Iris

/// What an unsigned URL may ask for in Iris Server's public mode (`--public`): enough for an
/// app to build its own URLs without carrying a key (Iris's `ImgproxyService`), too little for
/// anybody to multiply renders.
///
/// An unsigned URL (any signature segment that is not a valid signature) is served only when
/// - its source starts with one of ``allowedSources``, the operator's explicit allow-list (a
///   `local:///…` prefix lets local files under the local root through);
/// - it gives `rs`/`resize` once, `fit` or `fill`, both sides steps of ``ladder`` (pixels; the
///   client's `SizeLadder`);
/// - besides that, at most one `g`/`gravity`: a compass point or `sm`, without offsets;
/// - and its format by extension (`@webp`, `@avif`, `@jpg`, `@png`, `@gif`) or by `Accept`.
///
/// Everything else is a 403 naming the reason. A source can then be rendered in at most
/// 2 × ladder² × 10 × 5 ways (types, sizes, gravities, formats), whatever an outsider sends,
/// and each way has one path (``canonicalPath(options:source:fileExtension:)``): the result
/// cache and the ETag see the same rendition under one key, however its URL was spelled. The
/// bound is per source URL: an origin that serves one image under many URLs (a query string it
/// ignores) is as many sources, which is why the allow-list is the operator's to choose.
package struct PublicAccess: Sendable {
    /// The sizes a side may have.
    package var ladder: SizeLadder
    /// Source URL prefixes unsigned URLs may name (never empty in a running service: a public
    /// service without an allow-list would fetch and render any URL for anybody).
    package var allowedSources: [String]

    /// Public access to sources under `allowedSources` at the sizes of `ladder`.
    package init(ladder: SizeLadder = .standard, allowedSources: [String]) {
        self.ladder = ladder
        self.allowedSources = allowedSources
    }

    /// The options an unsigned URL's `segments` stand for, in canonical form (`rs:fill:W:H`, then
    /// `g:G` for a fill), or a 403 naming what public mode does not allow.
    package func check(_ segments: [String]) throws(ServeError) -> [String] {
        var resize: (type: ResizingType, width: Int, height: Int)?
        var gravity: String?
        for segment in segments {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            switch parts[0] {
            case "rs", "resize":
                guard resize == nil else { throw refused("give one resize (rs) only") }
                guard parts.count == 4, let type = ResizingType(rawValue: parts[1]), type == .fit || type == .fill else {
                    throw refused("resize must be rs:fit:W:H or rs:fill:W:H")
                }
                let sides = [parts[2], parts[3]]
                guard let width = step(parts[2]), let height = step(parts[3]) else {
                    throw refused(
                        "the size \(sides.joined(separator: "×")) is not on the size ladder (sides: "
                            + ladder.steps.map(String.init).joined(separator: ", ") + ")")
                }
                resize = (type, width, height)
            case "g", "gravity":
                guard gravity == nil else { throw refused("give one gravity (g) only") }
                guard parts.count == 2, parts[1] == "sm" || CompassPoint(rawValue: parts[1]) != nil else {
                    throw refused("gravity must be a compass point or sm, without offsets")
                }
                gravity = parts[1]
            default:
                throw refused("the option \(quoted(parts[0])) may not be set (only rs, g and the format extension)")
            }
        }
        guard let resize else { throw refused("give a size: rs:fit:W:H or rs:fill:W:H") }
        var canonical = ["rs:\(resize.type.rawValue):\(resize.width):\(resize.height)"]
        // Gravity only places a fill's crop: a fit's would only be another key for the same image.
        if resize.type == .fill, let gravity { canonical.append("g:\(gravity)") }
        return canonical
    }

    /// Refuses a source that is not under one of ``allowedSources``.
    package func checkSource(_ source: SourceReference) throws(ServeError) {
        let text = source.description
        guard allowedSources.contains(where: { !$0.isEmpty && text.hasPrefix($0) }) else {
            throw refused("the source is not on the allow-list")
        }
    }

    /// The one path a public rendition is known by: the canonical options, the source as parsed,
    /// the extension in lower case (`nil`: negotiated from `Accept`).
    package func canonicalPath(options: [String], source: SourceReference, fileExtension: String?) -> String {
        let format = fileExtension.flatMap(OutputFormat.init(extension:)).map { "@" + $0.fileExtension } ?? ""
        return "/" + options.joined(separator: "/") + "/plain/" + source.description + format
    }

    /// A side written as a step of the ladder, in its plain decimal spelling (`064` is not).
    private func step(_ text: String) -> Int? {
        guard let value = Int(text), String(value) == text, ladder.steps.contains(value) else { return nil }
        return value
    }

    private func refused(_ reason: String) -> ServeError {
        .forbidden("unsigned URL (public mode): " + reason)
    }
}
