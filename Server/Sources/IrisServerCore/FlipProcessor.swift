import Iris

/// Mirrors the image (imgproxy's `flip`): left to right, top to bottom, or both; after the
/// rotation, so the flip is of the image as it is shown.
public struct FlipProcessor: ImageProcessing, Hashable {
    /// Mirrored left to right.
    public var horizontal: Bool
    /// Mirrored top to bottom.
    public var vertical: Bool

    /// Makes a flip.
    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// What the memory cache key records.
    public var identifier: String { "iris-server.flip(\(horizontal),\(vertical))" }

    /// Returns the processed image (an animation: every frame).
    public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        let orientation: Orientation
        switch (horizontal, vertical) {
        case (true, true): orientation = .down
        case (true, false): orientation = .upMirrored
        case (false, true): orientation = .downMirrored
        case (false, false): return image
        }
        var image = image
        image.bitmap = image.bitmap.oriented(orientation)
        return image
    }
}
