import Foundation

/// The pixel size an image view asks the decoder for: its laid-out size in points × the display
/// scale, rounded up to a bucket.
///
/// Buckets keep a view that is resized a few points at a time (a split view being dragged, a
/// cell animating) from decoding again for every size: each side is rounded up to a step of
/// one eighth of the next power of two (16 px at least), so a request is larger than the view by
/// less than a quarter (less than 16 px for views under 64 px), usually by less than an eighth.
public enum ViewTargetSize {
    /// The bucketed pixel size for a view of `points` at `scale` pixels per point; `nil` while the
    /// view has no area (not laid out yet).
    public static func pixels(forPoints points: CGSize, scale: Double) -> PixelSize? {
        let width = Double(points.width) * scale
        let height = Double(points.height) * scale
        guard width.isFinite, height.isFinite, width >= 0.5, height >= 0.5 else { return nil }
        return PixelSize(width: bucket(Int(width.rounded(.up))), height: bucket(Int(height.rounded(.up))))
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
