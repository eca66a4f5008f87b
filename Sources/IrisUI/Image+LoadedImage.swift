#if canImport(SwiftUI)
import CoreGraphics
import Iris
import SwiftUI

extension Image {
    /// The pixels of `image`, drawn as they are (no copy: the `CGImage` points at the decoded
    /// bitmap), at the image's ``/Iris/LoadedImage/scale``.
    public init(_ image: LoadedImage) {
        self.init(bitmap: image.bitmap, scale: image.scale)
    }

    /// `bitmap` at `scale` pixels per point; an empty image if Core Graphics refuses it.
    init(bitmap: Bitmap, scale: Double) {
        if let cgImage = bitmap.cgImage {
            self.init(decorative: cgImage, scale: CGFloat(scale), orientation: .up)
        } else {
            self.init(size: .zero) { _ in }
        }
    }
}

extension ImagePhase {
    /// The image to show (the final one or a preview), as a SwiftUI `Image`: as
    /// `AsyncImagePhase.image`.
    public var image: Image? { loadedImage.map(Image.init) }
}
#endif
