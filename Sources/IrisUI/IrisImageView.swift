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
/// thread for the view's bounds, a memory-cache hit shown at once, cancelled when the view leaves
/// its window and started again when it comes back.
///
/// ```swift
/// let imageView = IrisImageView()
/// imageView.placeholder = UIImage(systemName: "photo")
/// imageView.imageContentMode = .fill
/// imageView.url = avatarURL          // a memory hit is on screen when this returns
/// ```
///
/// Setting ``request`` or ``url`` (to `nil` too) changes what is on screen before the setter
/// returns: the image from memory, else the placeholder, never the previous image (a reused cell
/// shows no stale row). Loaded pixels go to the view's layer as they are (`CALayer.contents`);
/// the placeholder and failure image show in ``placeholderView``, a platform image view, as the
/// platform shows images. Without constraints the view takes the image's size
/// (`intrinsicContentSize`), and an unsized view loads the image at its natural size. An
/// animated image plays (the model's player wakes once per frame), paused off screen and while
/// the app is in the background. A thin shell over ``ImageModel``, which decides.
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

    /// What to show, with the view's ``imageContentMode`` (and ``priority``, once set). Without
    /// a target size it is decoded for the view's bounds × the screen scale.
    public var request: ImageRequest? {
        didSet { show(request) }
    }

    /// The URL to show: a shortcut for ``request`` that keeps the view's settings.
    public var url: URL? {
        get {
            switch request?.source {
            case .url(let url), .file(let url): url
            case .urlRequest(let urlRequest): urlRequest.url
            case .data, nil: nil
            }
        }
        set { request = newValue.map(settings.request(for:)) }
    }

    /// Shown while nothing is loaded yet.
    public var placeholder: PlatformImage? { didSet { render() } }
    /// Shown when loading failed; the placeholder when `nil`.
    public var failureImage: PlatformImage? { didSet { render() } }
    /// The image view that shows ``placeholder`` and ``failureImage`` (set its content mode or
    /// tint as for any image view); hidden while an image is shown.
    public let placeholderView: PlatformImageView
    /// How a loaded image appears.
    public var transition: Transition = .fadeIn(duration: 0.25)
    /// Whether animated images play (the default) or show their first frame.
    public var animatesFrames = true {
        didSet { model.playsAnimations = animatesFrames }
    }
    /// Fits the image inside the view (the default) or fills it, cropping what overflows; the
    /// decode follows it.
    public var imageContentMode: Iris.ContentMode = .fit {
        didSet {
            settings.contentMode = imageContentMode
            hostLayer.contentsGravity = imageContentMode == .fill ? .resizeAspectFill : .resizeAspect
            if let request { self.request = request }
        }
    }
    /// How urgent the load is; changing it changes the running load's priority.
    public var priority: ImageRequest.Priority {
        get { model.priority }
        set {
            settings.priority = newValue
            model.priority = newValue
        }
    }
    /// The pipeline that loads; ``/Iris/ImagePipeline/shared`` by default.
    public var pipeline: ImagePipeline {
        get { model.pipeline }
        set { model.pipeline = newValue }
    }
    /// Called on the main actor for every result shown: each success (a memory-cache hit of a
    /// new image included) and each failure.
    public var onCompletion: ((Result<LoadedImage, ImageError>) -> Void)?

    private var settings = ImageViewSettings(contentMode: .fit)
    /// The model's result count last reported to ``onCompletion``.
    private var reportedResults = 0
    private var shownKind: ImagePhase.Kind = .empty
    private var shownBitmap: Bitmap?
    private var shownSize: CGSize?
    /// Numbers observation scopes, so only the newest one renders.
    private var observation = 0

    /// Makes an empty image view with its own model.
    public override init(frame: CGRect) {
        model = ImageModel()
        placeholderView = PlatformImageView()
        super.init(frame: frame)
        configure()
    }

    /// Made from a storyboard or nib.
    public required init?(coder: NSCoder) {
        model = ImageModel()
        placeholderView = PlatformImageView()
        super.init(coder: coder)
        configure()
    }

    private func configure() {
        hostLayer.contentsGravity = .resizeAspect
        hostLayer.masksToBounds = true
        placeholderView.frame = bounds
        placeholderView.configureAsPlaceholder()
        addSubview(placeholderView)
        observeAppActivity()
        update()
    }

    /// The size of the image shown, in points; none while no image is shown.
    public override var intrinsicContentSize: CGSize {
        shownSize ?? CGSize(width: PlatformView.noIntrinsicMetric, height: PlatformView.noIntrinsicMetric)
    }

    // MARK: Forwarding to the model

    #if canImport(UIKit)
    /// Tells the model the view went on or off screen.
    public override func didMoveToWindow() {
        super.didMoveToWindow()
        windowDidChange()
    }

    /// Tells the model the slot the view is laid out in.
    public override func layoutSubviews() {
        super.layoutSubviews()
        layoutDidChange()
    }

    @objc private func appDidEnterBackground() { model.appDidChange(isActive: false) }
    @objc private func appWillEnterForeground() { model.appDidChange(isActive: true) }

    private func observeAppActivity() {
        let center = NotificationCenter.default
        center.addObserver(self, selector: #selector(appDidEnterBackground),
                           name: UIApplication.didEnterBackgroundNotification, object: nil)
        center.addObserver(self, selector: #selector(appWillEnterForeground),
                           name: UIApplication.willEnterForegroundNotification, object: nil)
        registerForTraitChanges([UITraitDisplayScale.self]) { (view: IrisImageView, _) in
            view.model.displayScaleDidChange(view.displayScale)
        }
    }
    #else
    /// Tells the model the view went on or off screen.
    public override func viewDidMoveToWindow() {
        super.viewDidMoveToWindow()
        windowDidChange()
    }

    /// Tells the model the slot the view is laid out in.
    public override func layout() {
        super.layout()
        layoutDidChange()
    }

    /// Tells the model the display scale changed.
    public override func viewDidChangeBackingProperties() {
        super.viewDidChangeBackingProperties()
        model.displayScaleDidChange(displayScale)
    }

    @objc private func occlusionDidChange(_ notification: Notification) {
        guard let window, notification.object as? NSWindow === window else { return }
        model.appDidChange(isActive: window.occlusionState.contains(.visible))
    }

    private func observeAppActivity() {
        NotificationCenter.default.addObserver(self, selector: #selector(occlusionDidChange(_:)),
                                               name: NSWindow.didChangeOcclusionStateNotification, object: nil)
    }
    #endif

    private func layoutDidChange() {
        placeholderView.frame = bounds
        model.viewLayoutDidChange(slot: ImageSlot(measured: bounds.size), displayScale: displayScale)
    }

    private func windowDidChange() {
        if window == nil {
            model.viewDidDisappear()
        } else {
            model.viewDidAppear()
        }
    }

    private func show(_ request: ImageRequest?) {
        model.loadForView(request.map(settings.applied(to:)))
        if request != nil, model.phase.kind == .empty { setNeedsLayoutForLoad() }
        render()
    }

    /// A view not laid out yet loads once it is.
    private func setNeedsLayoutForLoad() {
        #if canImport(UIKit)
        setNeedsLayout()
        #else
        needsLayout = true
        #endif
    }

    // MARK: Showing

    /// Renders now, and again whenever what ``render()`` read changes (the phase, the frame of a
    /// playing animation, the animation switch).
    private func update() {
        observation += 1
        let current = observation
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            Task { @MainActor in
                guard let self, self.observation == current else { return }
                self.update()
            }
        }
    }

    private func render() {
        let phase = model.displayedPhase
        let display = ImageViewDisplay(phase: phase, hasFailureImage: failureImage != nil)
        if model.animatesPhaseChange, case .fadeIn(let duration) = transition, shownKind != phase.kind {
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            hostLayer.add(fade, forKey: "IrisImageView.fade")
        }
        shownKind = phase.kind
        switch display {
        case .image(let image):
            showPixels(image)
            placeholderView.isHidden = true
        case .failureImage:
            showPixels(nil)
            placeholderView.image = failureImage
            placeholderView.isHidden = false
        case .placeholder:
            showPixels(nil)
            placeholderView.image = placeholder
            placeholderView.isHidden = placeholder == nil
        }
        if model.resultCount != reportedResults {
            reportedResults = model.resultCount
            report(model.phase)
        }
    }

    /// Hands `image`'s pixels to the layer unless they are already there.
    private func showPixels(_ image: LoadedImage?) {
        if let image, let shownBitmap, shownBitmap.sharesStorage(with: image.bitmap), shownBitmap.size == image.bitmap.size {
            return
        }
        shownBitmap = image?.bitmap
        hostLayer.contents = image?.bitmap.cgImage
        if let image { hostLayer.contentsScale = CGFloat(image.scale) }
        let size = image.map { CGSize(width: Double($0.bitmap.width) / $0.scale, height: Double($0.bitmap.height) / $0.scale) }
        if size != shownSize {
            shownSize = size
            invalidateIntrinsicContentSize()
        }
    }

    private func report(_ phase: ImagePhase) {
        switch phase {
        case .success(let image): onCompletion?(.success(image))
        case .failure(let error): onCompletion?(.failure(error))
        case .empty, .loading, .preview: break
        }
    }
}
#endif
