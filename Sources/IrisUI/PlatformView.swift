#if canImport(UIKit) && !os(watchOS)
import UIKit

/// The platform's view class: `UIView`.
public typealias PlatformView = UIView
/// The platform's image class: `UIImage`.
public typealias PlatformImage = UIImage
/// The platform's image view class: `UIImageView`.
public typealias PlatformImageView = UIImageView

extension UIView {
    /// Pixels per point of the screen the view is on.
    var displayScale: Double { Double(traitCollection.displayScale) }
}

extension UIImageView {
    /// Set up to show a placeholder: centred at its own size (a symbol keeps its size, tint and
    /// orientation), filling its superview, not taking touches.
    func configureAsPlaceholder() {
        contentMode = .center
        autoresizingMask = [.flexibleWidth, .flexibleHeight]
        isUserInteractionEnabled = false
        isHidden = true
    }
}
#elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

/// The platform's view class: `NSView`.
public typealias PlatformView = NSView
/// The platform's image class: `NSImage`.
public typealias PlatformImage = NSImage
/// The platform's image view class: `NSImageView`.
public typealias PlatformImageView = NSImageView

extension NSView {
    /// Pixels per point of the screen the view is on.
    var displayScale: Double { Double(window?.backingScaleFactor ?? NSScreen.main?.backingScaleFactor ?? 2) }
}

extension NSImageView {
    /// Set up to show a placeholder: shrunk to fit when larger than the view, never enlarged,
    /// filling its superview.
    func configureAsPlaceholder() {
        imageScaling = .scaleProportionallyDown
        autoresizingMask = [.width, .height]
        isHidden = true
    }
}
#endif
