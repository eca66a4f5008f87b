/// An image container format, as recognised from a file's first bytes.
///
/// Iris decodes JPEG, PNG (and APNG), GIF and WebP. The others are recognised so that an error
/// can say what a file is rather than "unknown".
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case jpeg, png, gif, webp
    case heic, avif, bmp, tiff, jpegXL, svg, pdf, html, json
    /// Nothing recognisable.
    case unknown

    /// Whether Iris can decode this format.
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .gif, .webp, .avif, .heic, .jpegXL: true
        default: false
        }
    }

    /// A readable name: "JPEG", "HEIC", "HTML".
    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .heic: "HEIC"
        case .avif: "AVIF"
        case .bmp: "BMP"
        case .tiff: "TIFF"
        case .jpegXL: "JPEG XL"
        case .svg: "SVG"
        case .pdf: "PDF"
        case .html: "HTML"
        case .json: "JSON"
        case .unknown: "unknown"
        }
    }

    /// The usual file extension (without a dot), for the formats Iris can write.
    public var fileExtension: String? {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        default: nil
        }
    }
}
