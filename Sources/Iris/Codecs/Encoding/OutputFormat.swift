/// The formats an image is written in when a person or a URL names one: what `iris convert
/// out.webp` writes and what an imgproxy URL's `@webp` asks the image service for. Each is an
/// ``ImageFormat`` that ``ImageEncoders`` writes on every platform Iris runs on.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG.
    case jpeg
    /// PNG.
    case png
    /// WebP, animated when the image is.
    case webp
    /// AVIF.
    case avif
    /// GIF, animated when the image is.
    case gif

    /// The format named by a file extension or a format name (`jpg` and `jpeg` alike), in any
    /// case; `nil` for a name Iris does not write.
    public init?(extension name: String) {
        switch name.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        default: return nil
        }
    }

    /// Iris's format.
    public var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        case .gif: .gif
        }
    }

    /// The media type (`Content-Type`) of the bytes.
    public var mimeType: String { "image/" + rawValue }

    /// The extension of a file in this format (`jpg` for JPEG).
    public var fileExtension: String { imageFormat.fileExtension ?? rawValue }

    /// Whether an animation is written whole in this format (animated WebP, animated GIF).
    public var writesAnimations: Bool { self == .webp || self == .gif }
}
