// Interim: the lazy-frame API of `Animation` over today's in-memory frames. Replaced when
// Animation becomes a lazy frame source.
extension Animation {
    /// Frames in the animation.
    public var frameCount: Int { frames.count }

    /// How long frame `index` is shown, in seconds, as stored.
    public func duration(at index: Int) -> Double { index < durations.count ? durations[index] : 0 }

    /// The composed frame at `index`.
    public func frame(at index: Int) async throws(ImageError) -> Bitmap { frames[index] }
}
