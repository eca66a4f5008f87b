import Foundation
import Iris

/// The sizing part of an ``ImageModel``: what a view asked to show, the slot it is laid out in,
/// what was decoded for it, and the keys of the `.data` sources it shows.
///
/// It decides, for each layout, whether the image shown serves (keep), serves under the new
/// slot's key (re-key, no decode) or a new decode is needed (``plan(for:in:displayScale:contentMode:shown:)``);
/// the model carries the decision out.
struct ViewSizing {
    /// What a view asked to show with ``ImageModel/loadForView(_:)``.
    var viewRequest: ImageRequest?
    /// The slot the view was last laid out in, and its display scale.
    var viewLayout: (slot: ImageSlot, scale: Double)?
    /// The scale of the request a view asked for, when the shown request was sized for its slot:
    /// images are shown at their natural point size at that scale
    /// (``ViewTargetSize/naturalScale(of:requestScale:)``).
    var naturalScale: Double?
    /// What was decoded (or is decoding) for the view's source.
    var tracker = DecodeSizeTracker()
    /// Keys of the `.data` sources a view shows.
    var dataSourceKeys = DataSourceKeys()

    /// What to do for a layout of `request` in `slot`.
    enum Plan {
        /// No usable display scale: the view is in no window.
        case noDisplay
        /// Load this sized request (a memory hit, or a decode).
        case load(ImageRequest)
        /// Show the image already shown under this sized request's key, without decoding.
        case rekey(ImageRequest)
    }

    /// What `request` shown in `slot` on a display of `displayScale` needs, given the image
    /// shown (`shown`: its source size and its pixels, when it is of the same source):
    /// `contentMode` is the view's (``ImageModel/slotContentMode``).
    mutating func plan(
        for request: ImageRequest, dataKey: AnyHashable, in slot: ImageSlot, displayScale: Double,
        contentMode: ContentMode?, shown: (source: PixelSize, pixels: PixelSize)?
    ) -> Plan {
        guard
            let target = ViewTargetSize.decodeTarget(
                for: slot, displayScale: displayScale, imageScale: request.scale,
                contentMode: contentMode)
        else { return .noDisplay }
        naturalScale = request.scale
        switch tracker.decision(for: target, dataKey: dataKey, shown: shown) {
        case .load(let target): return .load(Self.sized(request, for: target))
        case .keep: return .load(Self.sized(request, for: tracker.current ?? target))
        case .rekey(let target): return .rekey(Self.sized(request, for: target))
        }
    }

    /// `request` with the target size, scale and content mode of `target`.
    static func sized(_ request: ImageRequest, for target: ViewTargetSize.Target) -> ImageRequest {
        var sized = request
        sized.targetSize = CGSize(
            width: Double(target.pixels.width) / target.scale,
            height: Double(target.pixels.height) / target.scale)
        sized.scale = target.scale
        sized.contentMode = target.contentMode
        return sized
    }

    /// Forgets what was decoded and how it was shown (a reset), keeping the view's layout.
    mutating func forgetDecodes() {
        naturalScale = nil
        tracker.reset()
    }
}

extension ImageRequest {
    /// The request an image view laid out in `slot` on a display of `displayScale` pixels per
    /// point makes for this request (which has no target size): its target size, scale and
    /// content mode come from the slot, as ``ImageModel/load(_:in:displayScale:)`` makes them.
    ///
    /// Prefetch these to warm exactly what the views will show: a view's load of the same request
    /// in the same slot is then a memory hit, with no second decode.
    ///
    /// ```swift
    /// let slot = ImageSlot(width: 120, height: 120)
    /// prefetcher.startPrefetching(with: urls.map { ImageRequest(url: $0).sizedForView(in: slot, displayScale: 3) })
    /// ```
    /// - Parameters:
    ///   - slot: The space the view offers, in points (a cell's size).
    ///   - displayScale: Pixels per point of the screen (`traitCollection.displayScale`, SwiftUI's
    ///     `displayScale`).
    ///   - contentMode: The view's content mode: `nil` for an ``IrisImage`` that says nothing (it
    ///     covers a closed slot), `.fit` for an ``IrisImageView`` unless its `imageContentMode` is
    ///     `.fill`, or what `.contentMode(_:)` / `imageContentMode` set.
    /// - Returns: The sized request; `self` when it has a target size already or the display
    ///   scale is not usable (the view loads such a request as it is).
    public func sizedForView(in slot: ImageSlot, displayScale: Double, contentMode: ContentMode? = nil) -> ImageRequest {
        var request = self
        if let contentMode { request.contentMode = contentMode }
        guard request.targetSize == nil,
            let target = ViewTargetSize.decodeTarget(
                for: slot, displayScale: displayScale, imageScale: request.scale,
                contentMode: contentMode)
        else { return request }
        return ViewSizing.sized(request, for: target)
    }
}
