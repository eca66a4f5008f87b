// PLACEHOLDER (skeleton): the orientation work replaces this file whole, keeping the API.

extension Bitmap {
    /// The bitmap turned upright for EXIF `orientation` (5–8 exchange width and height).
    public func oriented(_ orientation: Orientation) -> Bitmap { self }
}
