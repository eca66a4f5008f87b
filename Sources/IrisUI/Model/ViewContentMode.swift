import Foundation
import Iris

/// A UIKit view's content mode (`UIView.ContentMode`, same raw values) as ``IrisImageView``
/// honours it, as `UIImageView` does: it places the image (UIKit maps it to the layer's
/// `contentsGravity`) and decides what is decoded for the view's bounds, so that what shows is
/// sharp: a fill covers the bounds × the screen scale, a fit fits inside them, a stretch covers
/// both sides, and the modes that do not scale (centre, top, corners…) show the image at its
/// natural size, decoded at it.
enum ViewContentMode: Int, CaseIterable, Sendable {
    case scaleToFill = 0
    case scaleAspectFit
    case scaleAspectFill
    case redraw
    case center
    case top
    case bottom
    case left
    case right
    case topLeft
    case topRight
    case bottomLeft
    case bottomRight

    /// Whether the image is scaled to the view's bounds (else it shows at its natural size).
    var scalesImage: Bool {
        switch self {
        case .scaleToFill, .scaleAspectFit, .scaleAspectFill, .redraw: true
        case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight: false
        }
    }

    /// How the image is decoded for the bounds: fitted inside them for an aspect fit; covering
    /// them for an aspect fill and for a stretch (each side then has at least the pixels it
    /// shows); `nil` (the request's own) for the modes that do not scale, which load the natural
    /// size (``slot(measuring:)``).
    var decodeMode: Iris.ContentMode? {
        switch self {
        case .scaleAspectFit: .fit
        case .scaleAspectFill, .scaleToFill, .redraw: .fill
        case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight: nil
        }
    }

    /// The slot a view of `size` points offers its image: the size, or none (open) for the
    /// modes that show the image at its natural size.
    func slot(measuring size: CGSize) -> ImageSlot {
        scalesImage ? ImageSlot(measured: size) : .open
    }

    /// How a video's clip is placed over its poster, as the poster is.
    var clipPlacement: ClipPlacement {
        switch self {
        case .scaleAspectFill: .fill
        case .scaleToFill, .redraw: .stretch
        case .scaleAspectFit, .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight: .fit
        }
    }

    /// How a clip fills the player's frame (`AVLayerVideoGravity`).
    enum ClipPlacement: Sendable {
        /// Inside, whole (`resizeAspect`).
        case fit
        /// Covering, cut at the edges (`resizeAspectFill`).
        case fill
        /// Stretched to the frame (`resize`).
        case stretch
    }

    /// The mode for a fit or fill, as ``IrisImageView/imageContentMode`` sets it.
    init(_ contentMode: Iris.ContentMode) {
        self = contentMode == .fill ? .scaleAspectFill : .scaleAspectFit
    }

    /// Fit or fill, as ``IrisImageView/imageContentMode`` reads it back: a fill for the modes
    /// that cover the bounds, a fit otherwise.
    var fitOrFill: Iris.ContentMode { decodeMode == .fill ? .fill : .fit }
}
