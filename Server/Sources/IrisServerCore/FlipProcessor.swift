import Iris

/// Mirrors the image (imgproxy's `flip`): left to right, top to bottom, or both; after the
/// rotation, so the flip is of the image as it is shown.
package struct FlipProcessor: ImageProcessing, Hashable {
    /// Mirrored left to right.
    package var horizontal: Bool
    /// Mirrored top to bottom.
    package var vertical: Bool

    /// Makes a flip.
    package init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// What the memory cache key records.
    package var identifier: String { "iris-server.flip(\(horizontal),\(vertical))" }

    /// Returns the processed image (an animation: every frame).
    package func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
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
