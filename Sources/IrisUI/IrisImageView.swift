#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
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
/// imageView.contentMode = .scaleAspectFill  // decoded to cover the bounds (UIKit)
/// imageView.url = avatarURL          // a memory hit is on screen when this returns
/// ```
///
/// Setting ``request`` or ``url`` (to `nil` too) changes what is on screen before the setter
/// returns: the image from memory, else the placeholder, never the previous image (a reused cell
/// shows no stale row). Loaded pixels go to the view's layer as they are: on UIKit its own layer's
/// `contents`; on AppKit through `updateLayer()` (`wantsUpdateLayer`), the one place AppKit lets a
/// layer-backed view set its layer's contents, with `layerContentsPlacement` for the content mode.
/// The placeholder and failure image show in ``placeholderView``, a platform image view, as the
/// platform shows images. Without constraints the view takes the image's natural size
/// (`intrinsicContentSize`), and an unsized view loads the image at its natural size. VoiceOver
/// reads the view as an image once one is shown; set `accessibilityLabel` to name it, or
/// `isAccessibilityElement = false` to hide a decorative image (``ImageViewAccessibility``). An
/// animated image plays (the model's player wakes once per frame) while the view can be seen:
/// paused off its window, scrolled out of its scroll views, in a covered window (macOS), while
/// the app is in the background, with the "Animated Images" accessibility setting off, or with
/// ``animatesFrames`` off. A video (MP4, MOV) shows its poster, then plays over it, muted and
/// looping, from the poster's frame, without touching the audio session, in an `AVPlayerLayer`
/// placed as the content mode places the poster, under the same conditions and while video auto-play is on
/// (``VideoPlayback``); its player is let go when the view leaves its window. The view follows
/// its scroll views only while something can play (``ImageModel/tracksScrollVisibility``): a
/// still image costs nothing per scrolled frame. A filled image never draws outside the view
/// (it clips on AppKit too). A thin shell over ``ImageModel``, which decides.
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
    #if canImport(UIKit)
    /// How the image is placed in the view and decoded for it, as for `UIImageView`:
    /// `.scaleAspectFit` (the default) fits it inside the bounds; `.scaleAspectFill` covers them,
    /// cropping what overflows, decoded to cover them × the screen scale (sharp); `.scaleToFill`
    /// stretches it, decoded so both sides are sharp; `.center`, `.top`, the corners and the
    /// other sides show it at its natural size, decoded at it.
    public override var contentMode: UIView.ContentMode {
        didSet { contentModeDidChange() }
    }

    /// Fit or fill, through ``contentMode``: setting `.fill` sets `.scaleAspectFill`, `.fit`
    /// sets `.scaleAspectFit`; it reads `.fill` while the content mode covers the bounds.
    public var imageContentMode: Iris.ContentMode {
        get { viewContentMode.fitOrFill }
        set { contentMode = newValue == .fill ? .scaleAspectFill : .scaleAspectFit }
    }

    /// ``contentMode`` as the model's decisions take it.
    private var viewContentMode: ViewContentMode { ViewContentMode(rawValue: contentMode.rawValue) ?? .scaleToFill }
    #else
    /// Fits the image inside the view (the default) or fills it, cropping what overflows; the
    /// decode follows it.
    public var imageContentMode: Iris.ContentMode = .fit {
        didSet { contentModeDidChange() }
    }

    /// ``imageContentMode`` as the model's decisions take it.
    private var viewContentMode: ViewContentMode { ViewContentMode(imageContentMode) }
    #endif
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
    /// The pixels to show and the fade to apply, handed to the layer in ``updateLayer()`` (AppKit).
    private var pendingContents: (image: CGImage?, fade: Double?)?
    /// Observations of the scroll views around the view (their scrolling moves it in and out of
    /// sight without changing its window), made only while the model has something to play.
    private var scrollObservations: [AnyObject] = []
    /// The ancestors that clip the view, found once when scrolling is first followed.
    private var clippingAncestors: [WeakView] = []
    /// Whether the view follows its scroll views now.
    private var followsScrolling = false
    /// What the app set of `isAccessibilityElement`, if it did.
    private var explicitAccessibilityElement: Bool?
    /// The last visibility reported to the model.
    private var reportedVisible: Bool?
    #if canImport(AVFoundation)
    /// Plays a video's clip over its poster while the model's playback wants a player.
    private var videoView: VideoPlayerView?
    #endif
    #if os(tvOS)
    /// Shows the pixels on tvOS: an image view the focus engine lifts and tilts when a focused
    /// cell contains it (`adjustsImageWhenAncestorFocused`), as tvOS cells' images do. It follows
    /// the view's content mode and may grow past the view's bounds while lifted.
    private lazy var focusImageView: UIImageView = {
        let view = UIImageView(frame: bounds)
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.adjustsImageWhenAncestorFocused = true
        view.clipsToBounds = false
        view.contentMode = contentMode
        insertSubview(view, at: 0)
        return view
    }()
    #endif

    /// Makes an empty image view with its own model.
    public override init(frame: CGRect) {
        model = ImageModel()
        placeholderView = PlatformImageView()
        super.init(frame: frame)
        #if canImport(UIKit)
        contentMode = .scaleAspectFit  // a view made in code fits; one from a nib keeps its mode
        #endif
        configure()
    }

    /// Made from a storyboard or nib (on UIKit with the content mode set there).
    public required init?(coder: NSCoder) {
        model = ImageModel()
        placeholderView = PlatformImageView()
        super.init(coder: coder)
        configure()
    }

    private func configure() {
        #if os(tvOS)
        layer.masksToBounds = false  // the focus lift grows the image past the bounds
        #elseif canImport(UIKit)
        layer.masksToBounds = true
        accessibilityTraits = .image
        #else
        wantsLayer = true
        clipsToBounds = true  // NO by default since macOS 14: fills would overflow
        layerContentsRedrawPolicy = .onSetNeedsDisplay
        setAccessibilityRole(.image)
        #endif
        observeAutoplayPreferences()
        contentModeDidChange()
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

    /// An image view is an accessibility element once it shows an image (name it with
    /// `accessibilityLabel`).
    public override var isAccessibilityElement: Bool {
        get { ImageViewAccessibility.isElement(showsImage: shownBitmap != nil, explicit: explicitAccessibilityElement) }
        set {
            explicitAccessibilityElement = newValue
            super.isAccessibilityElement = newValue
        }
    }

    /// The scroll views around the view: scrolling them moves it in and out of sight. The
    /// clipping ancestors are found here, once, not on every scrolled frame.
    private func observeScrolling() {
        scrollObservations = []
        clippingAncestors = []
        var ancestor = superview
        while let view = ancestor, view !== window {
            if let scrollView = view as? UIScrollView {
                scrollObservations.append(
                    scrollView.observe(\.contentOffset, options: []) { [weak self] _, _ in
                        MainActor.assumeIsolated { self?.reportVisibility() }
                    })
            }
            if view.clipsToBounds || view is UIScrollView { clippingAncestors.append(WeakView(view)) }
            ancestor = view.superview
        }
    }

    /// The view's bounds and its clipping ancestors', in window coordinates.
    private func visibleAreaGeometry(in window: UIWindow) -> (frame: CGRect, clips: [CGRect]) {
        var clips = [window.bounds]
        for ancestor in clippingAncestors {
            if let view = ancestor.view { clips.append(view.convert(view.bounds, to: window)) }
        }
        return (convert(bounds, to: window), clips)
    }

    @objc private func appDidEnterBackground() { model.appDidChange(isActive: false) }
    @objc private func appWillEnterForeground() { model.appDidChange(isActive: true) }

    private func observeAppActivity() {
        let center = NotificationCenter.default
        center.addObserver(
            self, selector: #selector(appDidEnterBackground),
            name: UIApplication.didEnterBackgroundNotification, object: nil)
        center.addObserver(
            self, selector: #selector(appWillEnterForeground),
            name: UIApplication.willEnterForegroundNotification, object: nil)
        registerForTraitChanges([UITraitDisplayScale.self]) { (view: IrisImageView, _) in
            view.model.displayScaleDidChange(view.displayScale)
        }
    }
    #else
    /// Tells the model the view went on or off screen, and whether its new window is visible.
    public override func viewDidMoveToWindow() {
        super.viewDidMoveToWindow()
        windowDidChange()
        model.viewVisibilityDidChange(window: window.map { $0.occlusionState.contains(.visible) } ?? false)
    }

    /// Hands the pending pixels to the layer: AppKit asks here (``wantsUpdateLayer``).
    public override var wantsUpdateLayer: Bool { true }

    /// Sets the layer's contents to the image shown, fading when a load delivered it.
    public override func updateLayer() {
        guard let layer, let pending = pendingContents else { return }
        pendingContents = nil
        if let duration = pending.fade {
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            layer.add(fade, forKey: "IrisImageView.fade")
        }
        layer.contents = pending.image
    }

    /// An image view is an accessibility element once it shows an image (name it with
    /// `setAccessibilityLabel(_:)`).
    public override func isAccessibilityElement() -> Bool {
        ImageViewAccessibility.isElement(showsImage: shownBitmap != nil, explicit: explicitAccessibilityElement)
    }

    /// Remembers what the app set: `false` hides a decorative image from VoiceOver for good.
    public override func setAccessibilityElement(_ accessibilityElement: Bool) {
        explicitAccessibilityElement = accessibilityElement
        super.setAccessibilityElement(accessibilityElement)
    }

    private func applyContentMode() {
        layerContentsPlacement = imageContentMode == .fill ? .scaleProportionallyToFill : .scaleProportionallyToFit
    }

    /// The scroll view around the view: scrolling moves it in and out of sight.
    private func observeScrolling() {
        scrollObservations = []
        clippingAncestors = []
        var ancestor = superview
        while let view = ancestor {
            if view is NSClipView { clippingAncestors.append(WeakView(view)) }
            ancestor = view.superview
        }
        guard let clipView = enclosingScrollView?.contentView else { return }
        clipView.postsBoundsChangedNotifications = true
        let observer = NotificationCenter.default.addObserver(
            forName: NSView.boundsDidChangeNotification, object: clipView,
            queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.reportVisibility() }
        }
        scrollObservations = [ObservationToken(observer)]
    }

    /// The view's bounds and its clipping ancestors', in window coordinates.
    private func visibleAreaGeometry(in window: NSWindow) -> (frame: CGRect, clips: [CGRect]) {
        var clips: [CGRect] = []
        if let content = window.contentView { clips.append(content.convert(content.bounds, to: nil)) }
        for ancestor in clippingAncestors {
            if let view = ancestor.view { clips.append(view.convert(view.bounds, to: nil)) }
        }
        return (convert(bounds, to: nil), clips)
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
        model.viewVisibilityDidChange(window: window.occlusionState.contains(.visible))
    }

    private func observeAppActivity() {
        NotificationCenter.default.addObserver(
            self, selector: #selector(occlusionDidChange(_:)),
            name: NSWindow.didChangeOcclusionStateNotification, object: nil)
    }
    #endif

    private func layoutDidChange() {
        placeholderView.frame = bounds
        #if canImport(AVFoundation)
        videoView?.frame = bounds
        #endif
        model.viewLayoutDidChange(slot: viewContentMode.slot(measuring: bounds.size), displayScale: displayScale)
        reportVisibility()
    }

    private func windowDidChange() {
        if window == nil {
            stopFollowingScrolling()
            model.viewDidDisappear()
        } else {
            model.viewDidAppear()
            updateScrollFollowing()
        }
    }

    /// Follows the scroll views while the model has something to play (read in ``render()``, so
    /// a change of it renders again), and stops when it has not.
    private func updateScrollFollowing() {
        let follows = window != nil && model.tracksScrollVisibility
        guard follows != followsScrolling else { return }
        if follows {
            followsScrolling = true
            observeScrolling()
            reportVisibility()
        } else {
            stopFollowingScrolling()
        }
    }

    private func stopFollowingScrolling() {
        followsScrolling = false
        scrollObservations = []
        clippingAncestors = []
        reportedVisible = nil
    }

    /// Tells the model the auto-play preferences now, and whenever they change.
    private func observeAutoplayPreferences() {
        AutoplayPreferences.report(to: model)
        for name in AutoplayPreferences.changeNotifications {
            NotificationCenter.default.addObserver(self, selector: #selector(autoplayPreferencesDidChange), name: name, object: nil)
        }
    }

    /// Posted on whatever thread changed the setting: read on the main actor.
    @objc nonisolated private func autoplayPreferencesDidChange() {
        Task { @MainActor [weak self] in
            guard let self else { return }
            AutoplayPreferences.report(to: self.model)
        }
    }

    /// Tells the model whether the view is inside its scroll views' visible area (``VisibleArea``),
    /// while it follows them.
    private func reportVisibility() {
        guard let window, followsScrolling else { return }
        let geometry = visibleAreaGeometry(in: window)
        let visible = VisibleArea.isVisible(frame: geometry.frame, clips: geometry.clips)
        guard visible != reportedVisible else { return }
        reportedVisible = visible
        model.viewVisibilityDidChange(scrollViewport: visible)
    }

    /// The content mode changed: the decode follows it (AppKit places the pixels here; UIKit's
    /// own `contentMode` sets the layer's gravity).
    private func contentModeDidChange() {
        settings.contentMode = viewContentMode.decodeMode
        model.slotContentMode = viewContentMode.decodeMode
        #if os(tvOS)
        focusImageView.contentMode = contentMode
        #elseif canImport(AppKit) && !canImport(UIKit)
        applyContentMode()
        #endif
        if let request { self.request = request }
        #if canImport(UIKit)
        setNeedsLayout()  // the slot changes between measured and open
        #else
        needsLayout = true
        #endif
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
        var fade: Double?
        if model.animatesPhaseChange, case .fadeIn(let duration) = transition, shownKind != phase.kind {
            fade = duration
        }
        shownKind = phase.kind
        switch display {
        case .image(let image):
            showPixels(image, fade: fade)
            placeholderView.isHidden = true
        case .failureImage:
            showPixels(nil, fade: fade)
            placeholderView.image = failureImage
            placeholderView.isHidden = false
        case .placeholder:
            showPixels(nil, fade: fade)
            placeholderView.image = placeholder
            placeholderView.isHidden = placeholder == nil
        }
        showClip(model.videoPlayback)
        updateScrollFollowing()
        if model.resultCount != reportedResults {
            reportedResults = model.resultCount
            report(model.phase)
        }
    }

    /// Shows the clip of a video over its poster while the playback wants a player (read here,
    /// so a change renders again); lets the player go otherwise.
    private func showClip(_ playback: VideoPlayback?) {
        #if canImport(AVFoundation)
        guard let playback, playback.wantsPlayer else {
            videoView?.stop()
            videoView?.removeFromSuperview()
            videoView = nil
            return
        }
        let view = videoView ?? makeVideoView()
        view.show(playback, gravity: viewContentMode.clipPlacement.videoGravity)
        #endif
    }

    #if canImport(AVFoundation)
    private func makeVideoView() -> VideoPlayerView {
        let view = VideoPlayerView()
        view.frame = bounds
        #if canImport(UIKit)
        insertSubview(view, belowSubview: placeholderView)
        #else
        addSubview(view, positioned: .below, relativeTo: placeholderView)
        #endif
        videoView = view
        return view
    }
    #endif

    /// Hands `image`'s pixels to the layer unless they are already there.
    private func showPixels(_ image: LoadedImage?, fade: Double?) {
        if let image, let shownBitmap, shownBitmap.sharesStorage(with: image.bitmap), shownBitmap.size == image.bitmap.size {
            return
        }
        if image == nil, shownBitmap == nil { return }
        shownBitmap = image?.bitmap
        #if os(tvOS)
        if let fade {
            let transition = CATransition()
            transition.type = .fade
            transition.duration = fade
            focusImageView.layer.add(transition, forKey: "IrisImageView.fade")
        }
        focusImageView.image = image.flatMap { shown in
            shown.bitmap.cgImage.map { UIImage(cgImage: $0, scale: CGFloat(shown.scale), orientation: .up) }
        }
        #elseif canImport(UIKit)
        if let fade {
            let transition = CATransition()
            transition.type = .fade
            transition.duration = fade
            layer.add(transition, forKey: "IrisImageView.fade")
        }
        // The image's own scale: the modes that do not scale show its natural point size.
        if let image { layer.contentsScale = CGFloat(image.scale) }
        layer.contents = image?.bitmap.cgImage
        #else
        pendingContents = (image?.bitmap.cgImage, fade)
        needsDisplay = true
        #endif
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
#if canImport(AppKit) && !canImport(UIKit)
/// Keeps a notification observer for as long as it is held, removing it when released.
private final class ObservationToken {
    private let observer: any NSObjectProtocol
    init(_ observer: any NSObjectProtocol) { self.observer = observer }
    deinit { NotificationCenter.default.removeObserver(observer) }
}
#endif
/// A view held weakly (a clipping ancestor the image view looks through).
private struct WeakView {
    weak var view: PlatformView?
    init(_ view: PlatformView) { self.view = view }
}
#endif
