import Iris
/// Where one image slot is in its loading: what a view shows.
///
/// The cases mirror SwiftUI's `AsyncImagePhase`, with loading progress and progressive previews
/// added. IrisUI adds `image` (a SwiftUI `Image`), so `if let image = phase.image { … } else if
/// phase.error != nil { … } else { … }` reads as it does with `AsyncImage`.
public enum ImagePhase: Sendable {
    /// Nothing requested.
    case empty
    /// Loading; the download's progress once the data loader reports some.
    case loading(ImageTask.Progress?)
    /// Still loading, with an image to show meanwhile: a progressive preview, or the smaller
    /// image already shown while a bigger one loads for a view that grew.
    case preview(LoadedImage)
    /// The final image.
    case success(LoadedImage)
    /// Loading failed.
    case failure(ImageError)

    /// The image to show: the final one or a preview.
    public var loadedImage: LoadedImage? {
        switch self {
        case .preview(let image), .success(let image): image
        case .empty, .loading, .failure: nil
        }
    }

    /// The error, when loading failed.
    public var error: ImageError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The download's progress while loading, when known.
    public var progress: ImageTask.Progress? {
        if case .loading(let progress) = self { return progress }
        return nil
    }

    /// Whether a load is under way (with or without a preview to show).
    public var isLoading: Bool {
        switch self {
        case .loading, .preview: true
        case .empty, .success, .failure: false
        }
    }

    /// The phase with the pixels of its image replaced by `frame` (an animation frame from an
    /// ``AnimationPlayer``); the phase itself when it has no image.
    public func showing(frame: Bitmap) -> ImagePhase {
        switch self {
        case .preview(var image):
            image.bitmap = frame
            return .preview(image)
        case .success(var image):
            image.bitmap = frame
            return .success(image)
        case .empty, .loading, .failure:
            return self
        }
    }

    /// The phase without its payload: a view animates when this changes, not on every
    /// progress value.
    public var kind: Kind {
        switch self {
        case .empty: .empty
        case .loading: .loading
        case .preview: .preview
        case .success: .success
        case .failure: .failure
        }
    }

    /// The cases of ``ImagePhase`` without payloads.
    public enum Kind: Sendable, Hashable {
        /// ``ImagePhase/empty``.
        case empty
        /// ``ImagePhase/loading(_:)``.
        case loading
        /// ``ImagePhase/preview(_:)``.
        case preview
        /// ``ImagePhase/success(_:)``.
        case success
        /// ``ImagePhase/failure(_:)``.
        case failure
    }
}
