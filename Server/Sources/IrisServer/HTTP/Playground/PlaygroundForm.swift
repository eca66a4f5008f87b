import Foundation
import IrisServerCore

/// The playground's form as the query of `/playground` and `/playground/url`: one field per
/// control, turned into imgproxy option segments, a source and an extension.
///
/// Fields (all optional but `source`): `rs` resizing type, `w`, `h`, `el` (enlarge, `1`), `g`
/// gravity (a compass point, `sm` or `fp` with `gx`, `gy`), `dpr`, `q`, `format` (an extension;
/// none: negotiated from `Accept`), `bl`, `sh`, `rot`, `bg`, `pd`, `sm` (`0` keeps metadata),
/// `extra` (more option segments, `/`-separated) and `enc` (`plain` or `base64`).
struct PlaygroundForm: Sendable, Equatable {
    /// The source URL (`local:///name` or `http(s)://…`).
    var source: String
    /// The option segments, in the order the form lists them.
    var options: [String]
    /// The output format's extension, or `nil` to negotiate it.
    var fileExtension: String?
    /// How the source is written in the URL.
    var encoding: ImgproxyURLBuilder.SourceEncoding

    /// Reads the form from its fields; a missing source, or a field that would add a path
    /// segment (a `/`), is a 400.
    init(fields: [String: String]) throws(ServeError) {
        func value(_ name: String) -> String? {
            guard let text = fields[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        guard let source = value("source") else { throw .badRequest("choose a source") }
        self.source = source
        for (name, text) in fields where name != "source" && name != "extra" && text.contains("/") {
            throw .badRequest("the field \(name) may not contain /")
        }
        var options: [String] = []
        if let type = value("rs") { options.append("rs:" + type) }
        if let width = value("w") { options.append("w:" + width) }
        if let height = value("h") { options.append("h:" + height) }
        if value("el") == "1" { options.append("el:1") }
        if let gravity = value("g") {
            if gravity == "fp" {
                options.append("g:fp:" + (value("gx") ?? "0.5") + ":" + (value("gy") ?? "0.5"))
            } else {
                options.append("g:" + gravity)
            }
        }
        for name in ["dpr", "q", "bl", "sh", "rot", "bg", "pd", "sm"] {
            if let text = value(name) { options.append(name + ":" + text) }
        }
        if let extra = value("extra") {
            let segments = extra.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // Each is `name:args`: a segment without a colon would be read as the source's start.
            for segment in segments where !segment.contains(":") {
                throw .badRequest("the extra option \"\(segment)\" has no arguments (name:arg)")
            }
            options += segments
        }
        self.options = options
        fileExtension = value("format")
        guard let encoding = ImgproxyURLBuilder.SourceEncoding(rawValue: value("enc") ?? "plain") else {
            throw .badRequest("enc must be plain or base64")
        }
        self.encoding = encoding
    }
}
