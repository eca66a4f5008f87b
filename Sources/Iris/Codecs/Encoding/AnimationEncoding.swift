import Foundation

/// An encoder of animations for one format; get the platform's from ``ImageEncoders/standard``
/// (`ImageEncoders.animationEncoder(for:)`).
public protocol AnimationEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }

    /// Encodes every frame of `animation` with its duration, and the loop count. Frames are
    /// pulled one at a time, so a lazy animation is never held whole.
    func encode(_ animation: Animation, options: EncodeOptions) async throws(ImageError) -> Data
}
