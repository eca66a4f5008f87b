import Foundation
import Iris

/// The pixel size an image view asks the decoder for: the space it is offered (an
/// ``ImageSlot``) × the display scale, rounded up to a bucket.
///
/// Buckets keep a view that is resized a few points at a time (a split view being dragged, a
/// cell animating) from decoding again for every size: each side is rounded up to a step of
/// one eighth of the next power of two (16 px at least), so a request is larger than the view by
/// less than a quarter (less than 16 px for views under 64 px), usually by less than an eighth.
public enum ViewTargetSize {
    /// The longest side, in pixels, an image is decoded at along an open side of its slot. An
    /// image smaller than that shows at its natural size, as `AsyncImage` shows it; a larger one
    /// (a 48 MP photo) is shrunk to it instead of costing hundreds of megabytes.
    public static let openSidePixels = 4096

    /// What a view decodes for a slot: a box in pixels, how to fit the image in it, and the
    /// scale (pixels per point) the image is shown at.
    public struct Target: Hashable, Sendable {
        /// The box to decode into, in pixels.
        public var pixels: PixelSize
        /// Fit inside or cover the box.
        public var contentMode: ContentMode
        /// Pixels per point of the decoded image.
        public var scale: Double
    }

    /// What to decode for a view offered `slot` on a display of `displayScale` pixels per point:
    /// - both sides given: the slot × the display scale, bucketed, with `contentMode`;
    /// - one side open (a scroll view's axis): the given side bucketed, the open one up to
    ///   ``openSidePixels``, fitted (covering an open side would be unbounded);
    /// - both open: the image's natural size (up to ``openSidePixels`` a side) at `imageScale`
    ///   pixels per point, as `AsyncImage(url:scale:)` shows it.
    /// `nil` when the display scale is not usable.
    public static func decodeTarget(for slot: ImageSlot, displayScale: Double, imageScale: Double,
                                    contentMode: ContentMode) -> Target? {
        guard displayScale.isFinite, displayScale > 0 else { return nil }
        if slot.width == nil, slot.height == nil {
            let scale = imageScale.isFinite && imageScale > 0 ? imageScale : 1
            return Target(pixels: PixelSize(width: openSidePixels, height: openSidePixels), contentMode: .fit, scale: scale)
        }
        let width = slot.width.map { bucket(pixels: $0 * displayScale) } ?? openSidePixels
        let height = slot.height.map { bucket(pixels: $0 * displayScale) } ?? openSidePixels
        return Target(pixels: PixelSize(width: width, height: height),
                      contentMode: slot.isClosed ? contentMode : .fit, scale: displayScale)
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
}

/// What a view has asked to decode so far, so it reloads only when it grows past that, never when
/// it shrinks (the decoded image scales down for free).
struct DecodedSizeTracker {
    /// The data key the size belongs to: another image starts over.
    private var dataKey: DataKeyID?
    /// The largest size requested for it.
    private(set) var pixels: PixelSize?

    /// Identifies the source whose size is tracked.
    typealias DataKeyID = String

    /// The pixel size to request for a view now needing `needed` to show the image of `key`:
    /// `needed` for a new image, else the larger of it and what was requested before.
    mutating func target(for needed: PixelSize, dataKey key: DataKeyID) -> PixelSize {
        if key == dataKey, let pixels {
            let grown = PixelSize(width: max(pixels.width, needed.width), height: max(pixels.height, needed.height))
            self.pixels = grown
            return grown
        }
        dataKey = key
        pixels = needed
        return needed
    }

    /// Forgets what was requested.
    mutating func reset() {
        dataKey = nil
        pixels = nil
    }
}
