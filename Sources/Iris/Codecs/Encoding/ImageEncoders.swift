/// Finds the platform's encoders: the C libraries where they can be imported (Linux), ImageIO
/// on Apple platforms.
public enum ImageEncoders {
    /// The platform's encoder for `format`, if it can write it.
    public static func encoder(for format: ImageFormat) -> (any ImageEncoding)? {
        PlatformCodecs.encoders.first { $0.format == format }
    }

    /// The platform's encoder of animations in `format`, if it can write them.
    public static func animationEncoder(for format: ImageFormat) -> (any AnimationEncoding)? {
        PlatformCodecs.animationEncoders.first { $0.format == format }
    }
}
