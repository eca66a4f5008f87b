import Foundation
import Iris

/// How a thumbnail meets its W×H box: `--fit`, `--fill` or `--crop`.
enum ThumbnailShape: String, CaseIterable, Sendable {
    /// Inside the box, the aspect ratio kept (the default).
    case fit
    /// Covering the box, the aspect ratio kept, nothing cut off: one side is W or H, the other
    /// may be larger.
    case fill
    /// Exactly W×H: the image covers the box (enlarged if it is smaller) and the overflow is cut
    /// off evenly on both sides (a centre crop).
    case crop

    /// The pipeline request for `file` in a `box` of pixels: decoded at the target (covering
    /// it for `fill` and `crop`), then, for `crop`, resized if smaller and cropped to the box.
    func request(for file: URL, box: PixelSize) -> ImageRequest {
        let size = CGSize(width: Double(box.width), height: Double(box.height))
        switch self {
        case .fit:
            return ImageRequest(source: .file(file), targetSize: size, contentMode: .fit)
        case .fill:
            return ImageRequest(source: .file(file), targetSize: size, contentMode: .fill)
        case .crop:
            return ImageRequest(
                source: .file(file), targetSize: size, contentMode: .fill,
                processors: [.resize(size: box, contentMode: .fill, allowsUpscaling: true, crop: true)])
        }
    }
}
