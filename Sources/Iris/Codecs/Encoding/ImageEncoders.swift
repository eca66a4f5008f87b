/// The encoders Iris writes with, by format: the platform's own (the C libraries where they can
/// be imported, ImageIO on Apple platforms) plus any registered here, first match winning.
public struct ImageEncoders: Sendable {
    /// Encoders of still images, first match wins.
    public var encoders: [any ImageEncoding]
    /// Encoders of animations, first match wins.
    public var animationEncoders: [any AnimationEncoding]

    /// Makes a set of encoders.
    public init(encoders: [any ImageEncoding], animationEncoders: [any AnimationEncoding] = []) {
        self.encoders = encoders
        self.animationEncoders = animationEncoders
    }

    /// The platform's encoders.
    public static let standard = ImageEncoders(encoders: PlatformCodecs.encoders, animationEncoders: PlatformCodecs.animationEncoders)

    /// Adds `encoder` ahead of the others: it wins for its format.
    public mutating func register(_ encoder: any ImageEncoding) { encoders.insert(encoder, at: 0) }

    /// Adds `encoder` ahead of the other animation encoders: it wins for its format.
    public mutating func register(_ encoder: any AnimationEncoding) { animationEncoders.insert(encoder, at: 0) }

    /// The encoder for `format`, if one can write it.
    public func encoder(for format: ImageFormat) -> (any ImageEncoding)? {
        encoders.first { $0.format == format }
    }

    /// The encoder of animations in `format`, if one can write them.
    public func animationEncoder(for format: ImageFormat) -> (any AnimationEncoding)? {
        animationEncoders.first { $0.format == format }
    }

    /// The platform's encoder for `format` (``standard``), if it can write it.
    public static func encoder(for format: ImageFormat) -> (any ImageEncoding)? { standard.encoder(for: format) }

    /// The platform's encoder of animations in `format` (``standard``), if it can write them.
    public static func animationEncoder(for format: ImageFormat) -> (any AnimationEncoding)? {
        standard.animationEncoder(for: format)
    }
}
