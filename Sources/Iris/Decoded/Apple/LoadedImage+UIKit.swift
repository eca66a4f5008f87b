#if canImport(UIKit)
import UIKit

extension LoadedImage {
    /// The still image as a `UIImage` at ``scale`` pixels per point, upright (orientation is
    /// already applied to the pixels). Shares the pixels; see ``Bitmap/cgImage``.
    public var uiImage: UIImage? {
        guard let cgImage else { return nil }
        return UIImage(cgImage: cgImage, scale: CGFloat(scale), orientation: .up)
    }
}
#endif
