#if canImport(CoreGraphics)
import CoreGraphics

extension LoadedImage {
    /// The still image (``bitmap``) as a `CGImage`, sharing its pixels; see ``Bitmap/cgImage``.
    public var cgImage: CGImage? { bitmap.cgImage }
}
#endif
