import Foundation
import Iris

/// How an ``ImageModel`` sizes what its view shows: what the view asked to show, the slot it is
/// laid out in, what was decoded for it, and the keys of the `.data` sources it shows. The one
/// sizing type of IrisUI.
///
/// It decides, for each layout, whether the image shown serves (keep), serves under the new
/// slot's key (re-key, no decode) or a new decode is needed (``plan(for:dataKey:in:displayScale:contentMode:shown:)``);
/// the model carries the decision out.
///
/// **The pixel size asked for** is the space the view is offered (an ``ImageSlot``) × the
/// display scale, rounded up to a bucket.
///
/// A closed slot is *covered* unless the view says to fit (`.contentMode(.fit)`,
/// `IrisImageView.imageContentMode = .fit`): content drawn with `scaledToFill` is then sharp
/// without a content-mode modifier, and a slot that changes shape while its image arrives (a
/// `List` row as tall as its spinner, then as tall as the image) needs the same pixels before and
/// after, so it decodes once.
///
/// Buckets keep a view that is resized a few points at a time (a split view being dragged, a
/// cell animating) from decoding again for every size: each side is rounded up to a step of
/// one eighth of the next power of two (16 px at least), so a request is larger than the view by
/// less than a quarter (less than 16 px for views under 64 px), usually by less than an eighth.
///
/// **When to decode again.** A layout asks for a new decode only when the image it needs has more pixels than the one
/// decoded, or far fewer:
/// - once an image is shown its source size is known, and the decoded sizes are compared, not
///   the boxes: a `List` row's spinner-sized slot and its final slot cover a 4:3 photo with the
///   same pixels, so the image is *re-keyed* (stored under the new box, no decode) rather than
///   decoded again;
/// - before that, the boxes are compared;
/// - a decode at least twice as large as needed on both sides (a transient open or zero layout
///   decoded at the natural size) is replaced by one at the needed size, so a large decode is
///   never pinned by a slot that no longer shows it. Shrinking less than that keeps the image
///   (it scales down for free).
struct ViewSizing {
    /// What a view asked to show with ``ImageModel/loadForView(_:)``.
    var viewRequest: ImageRequest?
    /// The slot the view was last laid out in, and its display scale.
    var viewLayout: (slot: ImageSlot, scale: Double)?
    /// The scale of the request a view asked for, when the shown request was sized for its slot:
    /// images are shown at their natural point size at that scale
    /// (``naturalScale(of:requestScale:)``).
    var naturalScale: Double?
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
            let target = Self.decodeTarget(
                for: slot, displayScale: displayScale, imageScale: request.scale,
                contentMode: contentMode)
        else { return .noDisplay }
        naturalScale = request.scale
        switch decision(for: target, dataKey: dataKey, shown: shown) {
        case .load(let target): return .load(Self.sized(request, for: target))
        case .keep: return .load(Self.sized(request, for: current ?? target))
        case .rekey(let target): return .rekey(Self.sized(request, for: target))
        }
    }

    /// `request` with the target size, scale and content mode of `target`.
    static func sized(_ request: ImageRequest, for target: Target) -> ImageRequest {
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
        dataKey = nil
        current = nil
    }

    // MARK: The pixel size asked for

    /// The longest side, in pixels, an image is decoded at along an open side of its slot. An
    /// image smaller than that shows at its natural size, as `AsyncImage` shows it; a larger one
    /// (a 48 MP photo) is shrunk to it instead of costing hundreds of megabytes.
    static let openSidePixels = 4096

    /// What a view decodes for a slot: a box in pixels, how to fit the image in it, and the
    /// scale (pixels per point) that turns the box into the request's target size.
    struct Target: Hashable, Sendable, CustomStringConvertible {
        /// The box to decode into, in pixels.
        var pixels: PixelSize
        /// Fit inside or cover the box.
        var contentMode: ContentMode
        /// Pixels per point of the box.
        var scale: Double

        /// The decoder's target for this box.
        var decodeTarget: DecodeTarget { DecodeTarget(size: pixels, contentMode: contentMode) }

        var description: String { "\(pixels) \(contentMode) @\(scale)x" }
    }

    /// What to decode for a view offered `slot` on a display of `displayScale` pixels per point:
    /// - both sides given: the slot × the display scale, bucketed, covered unless `contentMode`
    ///   says `.fit` (`nil`: the view did not say);
    /// - one side open (a scroll view's axis): the given side bucketed, the open one up to
    ///   ``openSidePixels``, fitted (covering an open side would be unbounded);
    /// - both open: the image's natural size (up to ``openSidePixels`` a side) at `imageScale`
    ///   pixels per point, as `AsyncImage(url:scale:)` shows it.
    /// `nil` when the display scale is not usable (0 while a view is in no window).
    static func decodeTarget(
        for slot: ImageSlot, displayScale: Double, imageScale: Double,
        contentMode: ContentMode?
    ) -> Target? {
        guard displayScale.isFinite, displayScale > 0 else { return nil }
        if slot.width == nil, slot.height == nil {
            let scale = imageScale.isFinite && imageScale > 0 ? imageScale : 1
            return Target(pixels: PixelSize(width: openSidePixels, height: openSidePixels), contentMode: .fit, scale: scale)
        }
        let width = slot.width.map { bucket(pixels: $0 * displayScale) } ?? openSidePixels
        let height = slot.height.map { bucket(pixels: $0 * displayScale) } ?? openSidePixels
        return Target(
            pixels: PixelSize(width: width, height: height),
            contentMode: slot.isClosed ? contentMode ?? .fill : .fit, scale: displayScale)
    }

    private static func bucket(pixels: Double) -> Int {
        bucket(Int(min(pixels, Double(1 << 24)).rounded(.up)))
    }

    /// `pixels` rounded up to its bucket.
    static func bucket(_ pixels: Int) -> Int {
        let minimumStep = 16
        guard pixels > minimumStep else { return minimumStep }
        var power = 1
        while power < pixels { power <<= 1 }
        let step = max(minimumStep, power / 8)
        return (pixels + step - 1) / step * step
    }

    /// The scale (pixels per point) at which `image`, decoded for a view from a request of
    /// `requestScale`, keeps its natural point size: `requestScale` times the decoder's shrink,
    /// so a 100 px icon at `scale: 1` is 100 pt whatever the screen, and a 4,000 px photo shrunk
    /// to 1,000 px for its slot still measures 4,000 pt when shown without `resizable()`, as
    /// `AsyncImage` shows it. Processors that crop change one side: the larger ratio is the shrink.
    static func naturalScale(of image: LoadedImage, requestScale: Double) -> Double {
        let scale = requestScale.isFinite && requestScale > 0 ? requestScale : 1
        let source = image.sourceSize
        let pixels = image.bitmap.size
        guard source.width > 0, source.height > 0, pixels.width > 0, pixels.height > 0 else { return scale }
        let shrink = max(Double(pixels.width) / Double(source.width), Double(pixels.height) / Double(source.height))
        return scale * min(1, shrink)
    }

    // MARK: When to decode again

    /// What to do for a layout.
    enum Decision: Equatable, CustomStringConvertible {
        /// Decode for this target.
        case load(Target)
        /// The image shown already has the pixels this target needs: show it under this target's
        /// key, without decoding.
        case rekey(Target)
        /// What is shown or loading serves.
        case keep

        var description: String {
            switch self {
            case .load(let target): "load \(target)"
            case .rekey(let target): "rekey \(target)"
            case .keep: "keep"
            }
        }
    }

    /// The source the target belongs to (its data, orientation and processors): another starts over.
    private var dataKey: AnyHashable?
    /// The target last asked for (decoded, loading or re-keyed).
    private(set) var current: Target?

    /// What to do for a view now needing `needed` of the source `key`; `shown` is the source
    /// size and the decoded pixels of its image shown, when one is (of that source).
    ///
    /// Before anything was decoded for the view, an image of the source already shown (found in
    /// memory before the first layout) is re-keyed when it covers what `needed` asks of it
    /// without pinning twice that: a second view of a photo in memory shows it at once and
    /// decodes nothing.
    mutating func decision(
        for needed: Target, dataKey key: AnyHashable,
        shown: (source: PixelSize, pixels: PixelSize)?
    ) -> Decision {
        guard key == dataKey, let current else {
            if let shown, Self.serves(have: shown.pixels, want: needed.decodeTarget.outputSize(for: shown.source)) {
                return take(.rekey(needed), dataKey: key)
            }
            return take(.load(needed), dataKey: key)
        }
        if needed == current { return .keep }
        let have: PixelSize
        let want: PixelSize
        if let shown {
            have = current.decodeTarget.outputSize(for: shown.source)
            want = needed.decodeTarget.outputSize(for: shown.source)
            if have == want { return take(.rekey(needed), dataKey: key) }
        } else {
            guard needed.contentMode == current.contentMode else { return take(.load(needed), dataKey: key) }
            have = current.pixels
            want = needed.pixels
        }
        return Self.serves(have: have, want: want) ? .keep : take(.load(needed), dataKey: key)
    }

    /// Whether a decode of `have` pixels serves a need of `want`: it covers it, and is not at
    /// least twice as large on both sides.
    private static func serves(have: PixelSize, want: PixelSize) -> Bool {
        let covers = have.width >= want.width && have.height >= want.height
        let pinsDouble = have.width >= 2 * want.width && have.height >= 2 * want.height
        return covers && !pinsDouble
    }

    private mutating func take(_ decision: Decision, dataKey key: AnyHashable) -> Decision {
        dataKey = key
        switch decision {
        case .load(let target), .rekey(let target): current = target
        case .keep: break
        }
        return decision
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
            let target = ViewSizing.decodeTarget(
                for: slot, displayScale: displayScale, imageScale: request.scale,
                contentMode: contentMode)
        else { return request }
        return ViewSizing.sized(request, for: target)
    }
}
