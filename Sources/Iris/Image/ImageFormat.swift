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
    /// The identifier: "jpeg", "png", "heic". The only stored field: a format is copied with
    /// every image, so it stays one string (its name and extension are looked up).
    public let rawValue: String

    /// A format identified by `identifier`, shown as `name`, written with `fileExtension`.
    public init(_ identifier: String, name: String, fileExtension: String? = nil) {
        rawValue = identifier
        ImageFormatNames.register(identifier, name: name, fileExtension: fileExtension)
    }

    /// The format identified by `rawValue`: a well-known one, one made with
    /// ``init(_:name:fileExtension:)``, or a new one named after its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A readable name: "JPEG", "HEIC", "HTML".
    public var description: String { ImageFormatNames.names(of: rawValue)?.name ?? rawValue }

    /// The usual file extension (without a dot).
    public var fileExtension: String? { ImageFormatNames.names(of: rawValue)?.fileExtension }

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
    /// Windows bitmap (read on Linux with gdk-pixbuf, on Apple platforms with ImageIO).
    public static let bmp = ImageFormat("bmp", name: "BMP", fileExtension: "bmp")
    /// Windows icon: one or more images of different sizes (the largest is read).
    public static let ico = ImageFormat("ico", name: "ICO", fileExtension: "ico")
    /// TIFF: the first page (read on Linux with libtiff, on Apple platforms with ImageIO).
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
        .jpeg, .png, .gif, .webp, .heic, .avif, .jpegXL, .bmp, .ico, .tiff, .svg, .pdf, .html, .json, .unknown,
    ]
}

/// The names and file extensions of formats, by identifier: the well-known ones, and those made
/// with ``ImageFormat/init(_:name:fileExtension:)``.
private enum ImageFormatNames {
    typealias Names = (name: String, fileExtension: String?)

    private static let wellKnown: [String: Names] = [
        "jpeg": ("JPEG", "jpg"), "png": ("PNG", "png"), "gif": ("GIF", "gif"), "webp": ("WebP", "webp"),
        "heic": ("HEIC", "heic"), "avif": ("AVIF", "avif"), "jpegXL": ("JPEG XL", "jxl"), "bmp": ("BMP", "bmp"),
        "ico": ("ICO", "ico"), "tiff": ("TIFF", "tiff"), "svg": ("SVG", "svg"), "pdf": ("PDF", "pdf"), "html": ("HTML", nil),
        "json": ("JSON", nil), "unknown": ("unknown", nil),
    ]
    private static let registered = LockedState<[String: Names]>([:])

    static func register(_ identifier: String, name: String, fileExtension: String?) {
        guard wellKnown[identifier] == nil else { return }
        registered.withLock { names in
            if names[identifier] == nil { names[identifier] = (name, fileExtension) }  // the first one made names it
        }
    }

    static func names(of identifier: String) -> Names? {
        wellKnown[identifier] ?? registered.withLock { $0[identifier] }
    }
}
