/// An image container format, as recognised from a file's first bytes.
///
/// Open, like a string enum that anyone may extend: Iris names the formats it knows (the static
/// values below) and a codec of your own brings its own
/// (`ImageFormat("qoi", name: "QOI", fileExtension: "qoi")`), with a decoder that recognises it
/// (``ImageDecoding/format(of:)``). Two formats are the same when their identifiers are.
///
/// On Linux Iris decodes JPEG, PNG (and APNG), GIF and WebP with the C libraries, and AVIF, HEIC
/// and JPEG XL where their libraries are installed; on Apple platforms whatever ImageIO decodes.
/// The others are recognised so that an error can say what a file is rather than "unknown".
public struct ImageFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The identifier: "jpeg", "png", "heic".
    public let rawValue: String
    /// A readable name: "JPEG", "HEIC", "HTML".
    public let description: String
    /// The usual file extension (without a dot).
    public let fileExtension: String?

    /// A format identified by `identifier`, shown as `name`, written with `fileExtension`.
    public init(_ identifier: String, name: String, fileExtension: String? = nil) {
        rawValue = identifier
        description = name
        self.fileExtension = fileExtension
    }

    /// The well-known format with `rawValue` as identifier, or a new one named after it.
    public init(rawValue: String) {
        self = Self.wellKnown.first { $0.rawValue == rawValue } ?? ImageFormat(rawValue, name: rawValue)
    }

    /// Whether the identifiers are equal.
    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// JPEG (also progressive).
    public static let jpeg = ImageFormat("jpeg", name: "JPEG", fileExtension: "jpg")
    /// PNG and APNG.
    public static let png = ImageFormat("png", name: "PNG", fileExtension: "png")
    /// GIF, still or animated.
    public static let gif = ImageFormat("gif", name: "GIF", fileExtension: "gif")
    /// WebP: lossy, lossless or animated.
    public static let webp = ImageFormat("webp", name: "WebP", fileExtension: "webp")
    /// HEIC/HEIF: what iPhones shoot (HEVC in an ISO container).
    public static let heic = ImageFormat("heic", name: "HEIC", fileExtension: "heic")
    /// AVIF: AV1 in an ISO container.
    public static let avif = ImageFormat("avif", name: "AVIF", fileExtension: "avif")
    /// JPEG XL, bare codestream or in its container.
    public static let jpegXL = ImageFormat("jpegXL", name: "JPEG XL", fileExtension: "jxl")
    /// Windows bitmap (recognised only).
    public static let bmp = ImageFormat("bmp", name: "BMP", fileExtension: "bmp")
    /// TIFF (recognised only).
    public static let tiff = ImageFormat("tiff", name: "TIFF", fileExtension: "tiff")
    /// SVG (recognised only: not a raster image).
    public static let svg = ImageFormat("svg", name: "SVG", fileExtension: "svg")
    /// PDF (recognised only).
    public static let pdf = ImageFormat("pdf", name: "PDF", fileExtension: "pdf")
    /// An HTML page: what a server sends instead of an image (a login or error page).
    public static let html = ImageFormat("html", name: "HTML")
    /// A JSON body: an API error instead of an image.
    public static let json = ImageFormat("json", name: "JSON")
    /// Nothing recognisable.
    public static let unknown = ImageFormat("unknown", name: "unknown")

    /// The formats Iris names.
    public static let wellKnown: [ImageFormat] = [
        .jpeg, .png, .gif, .webp, .heic, .avif, .jpegXL, .bmp, .tiff, .svg, .pdf, .html, .json, .unknown,
    ]

    /// Whether the platform's decoders (``ImageDecoderRegistry/standard``) read this format.
    public var isDecodable: Bool { ImageDecoderRegistry.standard.decoder(for: self) != nil }
}
