import Foundation
import Iris

/// What an image view's own settings (its content mode, priority and processors) make of the
/// requests it shows: `IrisImage`'s modifiers and `IrisImageView`'s properties both forward here,
/// so a view set to fill decodes to fill, and one set to high priority loads at high priority,
/// however the request was given (a request, or the `url` shortcut).
public struct ImageViewSettings: Sendable {
    /// Fit or fill; `nil` keeps the request's.
    public var contentMode: ContentMode?
    /// How urgent loads are; `nil` keeps the request's.
    public var priority: ImageRequest.Priority?
    /// Applied after decoding; `nil` keeps the request's.
    public var processors: [any ImageProcessing]?

    /// Makes settings; `nil` keeps what the request says.
    public init(
        contentMode: ContentMode? = nil, priority: ImageRequest.Priority? = nil,
        processors: [any ImageProcessing]? = nil
    ) {
        self.contentMode = contentMode
        self.priority = priority
        self.processors = processors
    }

    /// `request` with these settings applied.
    public func applied(to request: ImageRequest) -> ImageRequest {
        var request = request
        if let contentMode { request.contentMode = contentMode }
        if let priority { request.priority = priority }
        if let processors { request.processors = processors }
        return request
    }

    /// The request for `url` (a file URL reads the file) with these settings.
    public func request(for url: URL) -> ImageRequest {
        applied(to: ImageRequest(url: url))
    }
}

/// What an image view that shows platform images for the other phases (`IrisImageView`'s
/// placeholder and failure image) puts on screen for a phase.
public enum ImageViewDisplay: Sendable {
    /// The loaded image or preview.
    case image(LoadedImage)
    /// The failure image.
    case failureImage
    /// The placeholder (also after a failure when there is no failure image).
    case placeholder

    /// What to show for `phase` when the view has (or has not) a failure image.
    public init(phase: ImagePhase, hasFailureImage: Bool) {
        if let image = phase.loadedImage {
            self = .image(image)
        } else if phase.error != nil, hasFailureImage {
            self = .failureImage
        } else {
            self = .placeholder
        }
    }
}

/// Whether a UIKit or AppKit image view is an accessibility element: what the app set, when it
/// set it (`isAccessibilityElement = false` hides a decorative image from VoiceOver for good);
/// otherwise once it shows an image, read as an image (name it with `accessibilityLabel`).
public enum ImageViewAccessibility {
    /// `explicit` when the app set it, else whether an image is shown.
    public static func isElement(showsImage: Bool, explicit: Bool?) -> Bool { explicit ?? showsImage }
}
