/// How the bytes of one pixel are laid out in a ``Bitmap``.
///
/// The four-byte formats keep alpha (or the unused filler byte) in the fourth byte and green in
/// the second; they differ in whether red or blue comes first. `bgra8` and `bgrx8` are the byte
/// orders Core Graphics calls 32-bit little-endian with alpha (or skip) first: what Core
/// Animation draws without converting.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// Red, green, blue, alpha; 8 bits each; colour **premultiplied** by alpha.
    case rgba8
    /// Red, green, blue and one unused byte (always 255); opaque.
    case rgbx8
    /// One 8-bit grey level per pixel; opaque.
    case gray8
    /// Blue, green, red, alpha; 8 bits each; colour **premultiplied** by alpha.
    case bgra8
    /// Blue, green, red and one unused byte (always 255); opaque.
    case bgrx8

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .rgbx8, .bgra8, .bgrx8: 4
        case .gray8: 1
        }
    }

    /// Whether the format can hold transparency (`rgba8`, `bgra8`).
    public var hasAlpha: Bool { self == .rgba8 || self == .bgra8 }

    /// Whether the colour bytes are stored blue first (`bgra8`, `bgrx8`).
    public var isBlueFirst: Bool { self == .bgra8 || self == .bgrx8 }

    /// The format with the same colour byte order that keeps alpha: `rgbx8` → `rgba8`,
    /// `bgrx8` → `bgra8`; grey becomes ``preferred(hasAlpha:)`` with alpha.
    public var withAlpha: PixelFormat {
        switch self {
        case .rgba8, .rgbx8: .rgba8
        case .bgra8, .bgrx8: .bgra8
        case .gray8: .preferred(hasAlpha: true)
        }
    }

    /// The opaque format with the same layout: `rgba8` → `rgbx8`, `bgra8` → `bgrx8`; opaque
    /// formats are returned as they are.
    public var withoutAlpha: PixelFormat {
        switch self {
        case .rgba8: .rgbx8
        case .bgra8: .bgrx8
        case .rgbx8, .bgrx8, .gray8: self
        }
    }

    /// The colour layout this platform draws without converting: on Apple platforms `bgra8`
    /// (or `bgrx8` when opaque), which ImageIO decodes to; elsewhere `rgba8` (or `rgbx8`),
    /// which the C libraries decode to.
    public static func preferred(hasAlpha: Bool) -> PixelFormat {
        #if canImport(CoreGraphics)
        hasAlpha ? .bgra8 : .bgrx8
        #else
        hasAlpha ? .rgba8 : .rgbx8
        #endif
    }

    /// Byte offset of red within a pixel (0 for grey, whose one byte stands for every channel).
    var redOffset: Int { isBlueFirst ? 2 : 0 }

    /// Byte offset of blue within a pixel (0 for grey).
    var blueOffset: Int {
        switch self {
        case .rgba8, .rgbx8: 2
        case .bgra8, .bgrx8, .gray8: 0
        }
    }
}
