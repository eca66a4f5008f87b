#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

extension LoadedImage {
    /// The still image as an `NSImage` whose size in points is its size in pixels divided by
    /// ``scale``. Shares the pixels; see ``Bitmap/cgImage``.
    public var nsImage: NSImage? {
        guard let cgImage else { return nil }
        let size = NSSize(width: CGFloat(bitmap.width) / CGFloat(scale), height: CGFloat(bitmap.height) / CGFloat(scale))
        return NSImage(cgImage: cgImage, size: size)
    }
}
#endif
