/// How the bytes of one pixel are laid out in a ``Bitmap``.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// Red, green, blue, alpha; 8 bits each; colour **premultiplied** by alpha.
    case rgba8
    /// Red, green, blue and one unused byte (always 255); opaque.
    case rgbx8
    /// One 8-bit grey level per pixel; opaque.
    case gray8

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .rgbx8: 4
        case .gray8: 1
        }
    }

    /// Whether the format can hold transparency.
    public var hasAlpha: Bool { self == .rgba8 }
}
