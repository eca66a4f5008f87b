import Foundation

/// Chooses the output format when the URL names none, from the client's `Accept`: AVIF, then
/// WebP, then PNG for images with alpha and JPEG for opaque ones. An animation is written as
/// animated WebP when the client takes WebP (no animated AVIF encoder), else its first frame.
/// GIF is never chosen here (every client that takes GIF takes PNG and JPEG, which keep more
/// colours): only a URL that names it gets it.
public struct FormatNegotiation: Sendable {
    /// The formats the service can write (those with an encoder).
    public var available: Set<OutputFormat>

    /// Makes a negotiation over `available` formats.
    public init(available: Set<OutputFormat>) { self.available = available }

    /// The format for a client that sent `accept`, for an image with or without alpha.
    public func choose(accept: String?, hasAlpha: Bool, isAnimated: Bool) -> OutputFormat {
        let accepted = Self.acceptedTypes(accept)
        let order: [OutputFormat] = isAnimated ? [.webp, .avif] : [.avif, .webp]
        for format in order where available.contains(format) && accepted.contains(format.mimeType) {
            return format
        }
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
