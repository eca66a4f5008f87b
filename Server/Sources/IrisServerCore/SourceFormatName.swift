import Iris

/// A source format as imgproxy names it in `skip_processing` (`jpg`, `png`, `gif`, `webp`,
/// `avif`, `heic`, `jxl`, `bmp`, `tiff`, `ico`, `svg`), and its media type for a source served
/// as it is (`skip_processing`, `raw`).
package struct SourceFormatName: Sendable, Hashable {
    /// The canonical name (`jpeg` for `jpg` and `jpeg`).
    package let name: String

    private static let aliases: [String: String] = [
        "jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp", "avif": "avif",
        "heic": "heic", "heif": "heic", "jxl": "jxl", "bmp": "bmp", "tiff": "tiff", "tif": "tiff",
        "ico": "ico", "svg": "svg",
    ]

    /// The format named `text` (case-insensitive), or `nil` when imgproxy knows no such name.
    package init?(_ text: String) {
        guard let name = Self.aliases[text.lowercased()] else { return nil }
        self.name = name
    }

    /// The name of a format Iris read, or `nil` for one imgproxy has no name for (video).
    package init?(_ format: ImageFormat) {
        switch format {
        case .jpeg: name = "jpeg"
        case .png: name = "png"
        case .gif: name = "gif"
        case .webp: name = "webp"
        case .avif: name = "avif"
        case .heic: name = "heic"
        case .jpegXL: name = "jxl"
        case .bmp: name = "bmp"
        case .tiff: name = "tiff"
        case .ico: name = "ico"
        case .svg: name = "svg"
        default: return nil
        }
    }

    /// The `Content-Type` of a source of this format served as it is.
    package var mimeType: String {
        switch name {
        case "jpeg": "image/jpeg"
        case "jxl": "image/jxl"
        case "ico": "image/x-icon"
        case "svg": "image/svg+xml"
        default: "image/" + name
        }
    }

    /// The file extension of a download's name.
    package var fileExtension: String { name == "jpeg" ? "jpg" : name }
}
