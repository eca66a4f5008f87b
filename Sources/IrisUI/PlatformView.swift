#if canImport(UIKit)
import UIKit

/// The platform's view class: `UIView`.
public typealias PlatformView = UIView
/// The platform's image class: `UIImage`.
public typealias PlatformImage = UIImage

extension UIImage {
    /// The pixels, for a layer's contents.
    var layerContents: CGImage? { cgImage }
}

extension UIView {
    /// The layer that shows the image.
    var hostLayer: CALayer { layer }
    /// Pixels per point of the screen the view is on.
    var displayScale: Double { Double(traitCollection.displayScale) }
}
#elseif canImport(AppKit)
import AppKit

/// The platform's view class: `NSView`.
public typealias PlatformView = NSView
/// The platform's image class: `NSImage`.
public typealias PlatformImage = NSImage

extension NSImage {
    /// The pixels, for a layer's contents.
    var layerContents: CGImage? { cgImage(forProposedRect: nil, context: nil, hints: nil) }
}

extension NSView {
    /// The layer that shows the image (the view is made layer-backed).
    var hostLayer: CALayer {
        wantsLayer = true
        if let layer { return layer }
        let layer = CALayer()
        self.layer = layer
        return layer
    }
    /// Pixels per point of the screen the view is on.
    var displayScale: Double { Double(window?.backingScaleFactor ?? NSScreen.main?.backingScaleFactor ?? 2) }
}
#endif
