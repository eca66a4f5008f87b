/// The platform image last made of a bitmap's pixels (on Apple platforms the `CGImage` of
/// ``Bitmap/cgImage``), shared by the bitmap's copies so that drawing the same pixels again hands
/// the screen the image it already has.
///
/// The image retains the storage it reads, so the storage cannot go away (and its identity cannot
/// be reused) while it is kept here. A copy that writes gets new storage *and* a memo of its own
/// (``Bitmap/withUnsafeMutableBytes(_:)``): keeping the shared memo would keep the old pixels
/// alive through the old image for as long as the written copy lives, doubling its memory.
///
/// The memo also tells whether any copy of a bitmap exists besides one (``Bitmap/isOnlyCopy()``):
/// every copy holds it, whatever made an image of the pixels.
final class BitmapRenderingMemo: Sendable {
    private let kept = LockedState<(storage: ObjectIdentifier, space: ColorSpace, image: any AnyObject & Sendable)?>(nil)

    /// The image kept for `storage` in `space`, else the one `make` makes (then kept).
    func image<Image: AnyObject & Sendable>(
        for storage: BitmapStorage, in space: ColorSpace,
        make: () -> Image?
    ) -> Image? {
        let identity = ObjectIdentifier(storage)
        if let kept = kept.withLock({ $0 }), kept.storage == identity, kept.space == space, let image = kept.image as? Image {
            return image
        }
        guard let image = make() else { return nil }
        kept.withLock { $0 = (identity, space, image) }
        return image
    }

    /// Whether an image is kept.
    var holdsImage: Bool { kept.withLock { $0 != nil } }
}
