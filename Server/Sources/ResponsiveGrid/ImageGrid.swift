import Foundation
import Iris
import IrisUI

/// A grid of image cells driven as IrisUI's views drive their model: one ``ImageModel`` per cell,
/// told its request (``ImageModel/loadForView(_:)``) and the slot it is laid out in
/// (``ImageModel/viewLayoutDidChange(slot:displayScale:)``).
@MainActor
public final class ImageGrid {
    /// One model per cell, in the order of the URLs.
    public let models: [ImageModel]

    /// Cells showing `urls`, loading through `pipeline`.
    public init(pipeline: ImagePipeline, urls: [URL]) {
        models = urls.map { _ in ImageModel(pipeline: pipeline) }
        for (model, url) in zip(models, urls) { model.loadForView(ImageRequest(url: url)) }
    }

    /// Every cell laid out (again) on `screen`: each decodes again when the new slot needs more
    /// pixels.
    public func layOut(on screen: GridScreen) {
        let slot = ImageSlot(width: screen.cellSide, height: screen.cellSide)
        for model in models { model.viewLayoutDidChange(slot: slot, displayScale: screen.scale) }
    }

    /// Whether every cell has its final image or a failure.
    public var isSettled: Bool {
        models.allSatisfy { model in
            switch model.phase {
            case .success, .failure: true
            case .empty, .loading, .preview: false
            }
        }
    }

    /// Waits until every cell has settled, checking every few milliseconds; `false` when
    /// `deadline` passed first (a hang detector, not a measure).
    public func settle(deadline: Duration) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while !isSettled {
            if clock.now >= end { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// The cells whose image does not cover a slot of `screen` (a failure, or too few pixels a side).
    public func cellsNotCovering(_ screen: GridScreen) -> [Int] {
        models.indices.filter { index in
            guard case .success(let image) = models[index].phase else { return true }
            return image.bitmap.width < screen.cellPixels || image.bitmap.height < screen.cellPixels
        }
    }
}
