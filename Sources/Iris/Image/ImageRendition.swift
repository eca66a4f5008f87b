/// What an image service is asked to render: a box in pixels, how the image goes in it, and the
/// format.
public struct ImageRendition: Sendable, Hashable, CustomStringConvertible {
    /// Width of the box, in pixels.
    public var width: Int
    /// Height of the box, in pixels.
    public var height: Int
    /// `.fit`: the image fits inside the box; `.fill`: it covers the box, cropped to it.
    public var contentMode: ContentMode
    /// The format asked for; `nil` lets the service choose.
    public var format: ImageFormat?

    /// A rendition of a `width` × `height` box.
    public init(width: Int, height: Int, contentMode: ContentMode, format: ImageFormat? = nil) {
        self.width = width
        self.height = height
        self.contentMode = contentMode
        self.format = format
    }

    /// "fill 640×480 webp".
    public var description: String {
        "\(contentMode) \(width)×\(height)" + (format.map { " \($0.fileExtension ?? $0.rawValue)" } ?? "")
    }
}
