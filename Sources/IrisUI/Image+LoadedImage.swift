#if canImport(SwiftUI)
import CoreGraphics
import Iris
import SwiftUI

extension Image {
    /// The pixels of `image`, drawn as they are (no copy: the `CGImage` points at the decoded
    /// bitmap), at the image's ``/Iris/LoadedImage/scale``, read by VoiceOver as an image:
    /// `.accessibilityLabel(_:)` names it, as for `AsyncImage`'s image.
    public init(_ image: LoadedImage) {
        self.init(bitmap: image.bitmap, scale: image.scale, accessibility: .unlabelled)
    }

    /// The pixels of `image`, named `label` for VoiceOver.
    public init(_ image: LoadedImage, label: Text) {
        self.init(bitmap: image.bitmap, scale: image.scale, accessibility: .label(label))
    }

    /// How VoiceOver treats an image made from a bitmap.
    enum BitmapAccessibility {
        /// An image without a name: VoiceOver reads it as an image, and a label set on the view
        /// (`.accessibilityLabel`) names it.
        case unlabelled
        /// An image named by the label.
        case label(Text)
        /// Ignored by VoiceOver (a background, a texture).
        case decorative
    }

    /// `bitmap` at `scale` pixels per point; an empty image if Core Graphics refuses it.
    init(bitmap: Bitmap, scale: Double, accessibility: BitmapAccessibility) {
        guard let cgImage = bitmap.cgImage else {
            self.init(size: .zero) { _ in }
            return
        }
        switch accessibility {
        case .decorative:
            self.init(decorative: cgImage, scale: CGFloat(scale), orientation: .up)
        case .label(let label):
            self.init(cgImage, scale: CGFloat(scale), orientation: .up, label: label)
        case .unlabelled:
            #if canImport(UIKit)
            self.init(uiImage: UIImage(cgImage: cgImage, scale: CGFloat(scale), orientation: .up))
            #elseif canImport(AppKit)
            self.init(
                nsImage: NSImage(
                    cgImage: cgImage,
                    size: NSSize(
                        width: Double(bitmap.width) / scale,
                        height: Double(bitmap.height) / scale)))
            #else
            self.init(cgImage, scale: CGFloat(scale), orientation: .up, label: Text(verbatim: ""))
            #endif
        }
    }
}

extension ImagePhase {
    /// The image to show (the final one or a preview), as a SwiftUI `Image`, as
    /// `AsyncImagePhase.image`: VoiceOver reads it as an image, and `.accessibilityLabel(_:)`
    /// on it names it.
    public var image: Image? { loadedImage.map { Image($0) } }

    /// The image to show, named `label` for VoiceOver.
    public func image(label: Text) -> Image? { loadedImage.map { Image($0, label: label) } }

    /// The image to show, hidden from VoiceOver (a background, a decoration).
    public var decorativeImage: Image? {
        loadedImage.map { Image(bitmap: $0.bitmap, scale: $0.scale, accessibility: .decorative) }
    }
}
#endif
