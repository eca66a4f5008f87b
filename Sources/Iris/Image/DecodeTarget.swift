/// The size an image will be shown at, in pixels: decoders shrink to it while decoding.
///
/// Aspect ratio is always kept. Images smaller than the target stay as they are unless
/// `allowsUpscaling` is set.
public struct DecodeTarget: Sendable, Hashable, CustomStringConvertible {
    /// The box to fit or fill, in pixels.
    public var size: PixelSize
    /// Fit inside or cover.
    public var contentMode: ContentMode
    /// Whether a smaller source is enlarged to the target.
    public var allowsUpscaling: Bool

    /// Makes a target.
    public init(size: PixelSize, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false) {
        self.size = size
        self.contentMode = contentMode
        self.allowsUpscaling = allowsUpscaling
    }

    /// Makes a target from a width and height.
    public init(width: Int, height: Int, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false) {
        self.init(size: PixelSize(width: width, height: height), contentMode: contentMode, allowsUpscaling: allowsUpscaling)
    }

    /// The output size for a source of size `source`: aspect kept, at least 1×1.
    public func outputSize(for source: PixelSize) -> PixelSize {
        guard source.width > 0, source.height > 0, size.width > 0, size.height > 0 else { return source }
        let sx = Double(size.width) / Double(source.width)
        let sy = Double(size.height) / Double(source.height)
        var scale = contentMode == .fit ? min(sx, sy) : max(sx, sy)
        if !allowsUpscaling { scale = min(scale, 1) }
        if scale == 1 { return source }
        let width = max(1, Int((Double(source.width) * scale).rounded()))
        let height = max(1, Int((Double(source.height) * scale).rounded()))
        return PixelSize(width: width, height: height)
    }

    /// The size and content mode: "128×128 fit".
    public var description: String { "\(size) \(contentMode)" }
}

/// How an image is fitted to a target size.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    /// The whole image fits inside the target; one side may be shorter.
    case fit
    /// The image covers the target; one side may be longer. Nothing is cropped.
    case fill
}
