import Foundation

/// Identifies one view showing a model that it does not own (`IrisImage(model:)`), for
/// ``ImageModel``'s playback: the view keeps one for its life and reports through it.
@MainActor
public final class ImageViewer {
    /// Makes a viewer token.
    public init() {}
}

/// Whether an animation or a video may play now: the one visibility policy of every view form.
///
/// An animation plays while it is switched on (``ImageModel/playsAnimations``), its app is
/// active, and some view that shows it is visible. A view is visible while it is on screen
/// (appeared; in a window), its window is not covered (macOS occlusion), and it is inside its
/// scroll view's visible area. The owning view and every view sharing the model
/// (``ImageViewer``) count; a model no view has reported on yet plays (a model driven by code).
struct PlaybackVisibility {
    /// What one view reported.
    struct ViewState: Equatable {
        var onScreen = true
        var windowVisible = true
        var inScrollViewport = true
        /// Whether this view shows the animation (a view showing the first frame only does not).
        var animates = true

        var isVisible: Bool { onScreen && windowVisible && inScrollViewport && animates }
    }

    /// Who reported: the owning view, or a sharing view.
    enum Viewer: Hashable {
        case owner
        case shared(ObjectIdentifier)
    }

    /// The model's switch.
    var switchedOn = true
    /// Whether the app is active (not in the background).
    var appActive = true
    private var views: [Viewer: ViewState] = [:]

    /// Whether the animation should run now.
    var shouldPlay: Bool {
        switchedOn && appActive && (views.isEmpty || views.values.contains(where: \.isVisible))
    }

    /// Whether some view showing the model is on screen (or none has reported): a video keeps
    /// its player only then.
    var someViewOnScreen: Bool {
        views.isEmpty || views.values.contains(where: \.onScreen)
    }

    /// Changes what `viewer` reported.
    mutating func update(_ viewer: Viewer, _ change: (inout ViewState) -> Void) {
        change(&views[viewer, default: ViewState()])
    }

    /// `viewer` is gone: it counts no more.
    mutating func remove(_ viewer: Viewer) {
        views[viewer] = nil
    }

    /// What `viewer` reported, if anything.
    func state(of viewer: Viewer) -> ViewState? { views[viewer] }
}
