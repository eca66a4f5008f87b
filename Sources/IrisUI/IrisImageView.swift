#if canImport(UIKit) || canImport(AppKit)
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif
import Iris
import Observation
import QuartzCore

/// A UIKit `UIView` / AppKit `NSView` that shows an image loaded by Iris: decoded off the main
/// thread at the view's size, a memory-cache hit shown at once, cancelled when the view leaves
/// its window and started again when it comes back.
///
/// ```swift
/// let imageView = IrisImageView()
/// imageView.placeholder = UIImage(systemName: "photo")
/// imageView.url = avatarURL
/// ```
///
/// The pixels go to the view's layer as they are (`CALayer.contents`), in the layout Core
/// Animation draws without converting. A thin shell over ``ImageModel``, which decides.
@MainActor
public final class IrisImageView: PlatformView {
    /// How a newly loaded image appears.
    public enum Transition: Sendable, Hashable {
        /// At once.
        case none
        /// Fades in over `duration` seconds (never for a memory-cache hit).
        case fadeIn(duration: Double)
    }

    /// The model that loads; owned by this view.
    public let model: ImageModel

    /// What to show. Without a target size it is decoded at the view's size × the screen scale.
    public var request: ImageRequest? {
        didSet { model.loadForView(request) }
    }

    /// The URL to show: a shortcut for ``request``.
    public var url: URL? {
        get {
            switch request?.source {
            case .url(let url), .file(let url): url
            case .urlRequest(let urlRequest): urlRequest.url
            case .data, nil: nil
            }
        }
        set { request = newValue.map { ImageRequest(url: $0) } }
    }

    /// Shown while nothing is loaded yet.
    public var placeholder: PlatformImage? { didSet { render() } }
    /// Shown when loading failed; the placeholder when `nil`.
    public var failureImage: PlatformImage? { didSet { render() } }
    /// How a loaded image appears.
    public var transition: Transition = .fadeIn(duration: 0.25)
    /// Whether animated images play (the default) or show their first frame.
    public var animatesFrames = true { didSet { render() } }
    /// Fits the image inside the view (the default) or fills it, cropping what overflows.
    public var imageContentMode: Iris.ContentMode = .fit {
        didSet {
            hostLayer.contentsGravity = imageContentMode == .fill ? .resizeAspectFill : .resizeAspect
            if var request, request.contentMode != imageContentMode {
                request.contentMode = imageContentMode
                self.request = request
            }
        }
    }
    /// How urgent the load is.
    public var priority: ImageRequest.Priority {
        get { model.priority }
        set { model.priority = newValue }
    }
    /// The pipeline that loads; ``ImagePipeline/shared`` by default.
    public var pipeline: ImagePipeline {
        get { model.pipeline }
        set { model.pipeline = newValue }
    }
    /// Called on the main actor when a load succeeds or fails.
    public var onCompletion: ((Result<LoadedImage, ImageError>) -> Void)?

    private var reportedPhase: ImagePhase.Kind = .empty

    /// Makes an empty image view with its own model.
    public override init(frame: CGRect) {
        model = ImageModel()
        super.init(frame: frame)
        configureLayer()
        observeModel()
    }

    /// Made from a storyboard or nib.
    public required init?(coder: NSCoder) {
        model = ImageModel()
        super.init(coder: coder)
        configureLayer()
        observeModel()
    }

    private func configureLayer() {
        hostLayer.contentsGravity = .resizeAspect
        hostLayer.masksToBounds = true
    }

    // MARK: Forwarding to the model

    #if canImport(UIKit)
    public override func didMoveToWindow() {
        super.didMoveToWindow()
        windowDidChange()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        model.viewLayoutDidChange(size: bounds.size, scale: displayScale)
    }
    #else
    public override func viewDidMoveToWindow() {
        super.viewDidMoveToWindow()
        windowDidChange()
    }

    public override func layout() {
        super.layout()
        model.viewLayoutDidChange(size: bounds.size, scale: displayScale)
    }
    #endif

    private func windowDidChange() {
        if window == nil {
            model.viewDidDisappear()
        } else {
            model.viewDidAppear()
            render()
        }
    }

    /// Renders the model's phase now and again after each change.
    private func observeModel() {
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            Task { @MainActor in self?.observeModel() }
        }
    }

    // MARK: Showing

    private func render() {
        let phase = model.phase
        // frames: AnimationPlayer (shows the still bitmap until then; animated when
        // animatesFrames && window != nil && (phase.loadedImage?.animation?.frameCount ?? 0) > 1)
        if model.animatesPhaseChange, case .fadeIn(let duration) = transition, reportedPhase != phase.kind {
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            hostLayer.add(fade, forKey: "IrisImageView.fade")
        }
        show(phase)
        report(phase)
    }

    private func show(_ phase: ImagePhase) {
        if let image = phase.loadedImage {
            hostLayer.contents = image.bitmap.cgImage
            hostLayer.contentsScale = CGFloat(image.scale)
        } else if phase.error != nil, let failureImage {
            hostLayer.contents = failureImage.layerContents
        } else {
            hostLayer.contents = placeholder?.layerContents
        }
    }

    private func report(_ phase: ImagePhase) {
        guard phase.kind != reportedPhase else { return }
        reportedPhase = phase.kind
        switch phase {
        case .success(let image): onCompletion?(.success(image))
        case .failure(let error): onCompletion?(.failure(error))
        case .empty, .loading, .preview: break
        }
    }
}
#endif
