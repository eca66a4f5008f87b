import Foundation
import Iris

/// Chooses the output format when the URL names none, as imgproxy does with AVIF and WebP
/// detection on: AVIF, then WebP, when the client's `Accept` names them (an animation: WebP
/// only, there is no animated AVIF encoder); else the source's own format when it is JPEG,
/// PNG or GIF (imgproxy's preferred formats: a PNG stays PNG, an animated GIF an animated
/// GIF); else GIF for an animation, PNG for an image with alpha, JPEG for an opaque one.
package struct FormatNegotiation: Sendable {
    /// The formats the service can write (those with an encoder).
    package var available: Set<OutputFormat>

    /// The source formats kept as they are when the client names no better one (imgproxy's
    /// `IMGPROXY_PREFERRED_FORMATS` default), in order of preference for other sources.
    package static let preferred: [OutputFormat] = [.jpeg, .png, .gif]

    /// Makes a negotiation over `available` formats.
    package init(available: Set<OutputFormat>) { self.available = available }

    /// The format for a client that sent `accept`, for an image with or without alpha, from a
    /// source of `source` format (`nil`: another format, or unknown).
    package func choose(accept: String?, hasAlpha: Bool, isAnimated: Bool, source: OutputFormat? = nil) -> OutputFormat {
        let accepted = Self.acceptedTypes(accept)
        let order: [OutputFormat] = isAnimated ? [.webp] : [.avif, .webp]
        for format in order where available.contains(format) && accepted.contains(format.mimeType) {
            return format
        }
        if let source, Self.preferred.contains(source), available.contains(source) { return source }
        if isAnimated, available.contains(.gif) { return .gif }
        return hasAlpha ? .png : .jpeg
    }

    /// The media types of an `Accept` header with a quality above 0, lowercased (`*/*` and
    /// `image/*` name no format: every client takes JPEG and PNG).
    static func acceptedTypes(_ accept: String?) -> Set<String> {
        guard let accept else { return [] }
        var types: Set<String> = []
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased(), !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1
            }
            if quality > 0 { types.insert(type) }
        }
        return types
    }
}
