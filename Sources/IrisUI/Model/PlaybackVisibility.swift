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
/// (``ImageViewer``) count. A model no view has ever reported on plays (a model driven by code);
/// once views have shown it, it plays only while one of them can see it, so the last viewer
/// leaving (a detail view popped, a tab switched away) stops it.
///
/// The user's preferences come first: animated images play only while the system's "Animated
/// Images" setting is on (``userPlaysAnimatedImages``), and clips only while video auto-play is on
/// (``userAutoplaysVideo``); with either off the poster or first frame shows.
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
    /// The system's accessibility setting for animated images (SwiftUI's
    /// `accessibilityPlayAnimatedImages`, `AccessibilitySettings.animatedImagesEnabled`).
    var userPlaysAnimatedImages = true
    /// The system's video auto-play setting (`UIAccessibility.isVideoAutoplayEnabled` on iOS and
    /// tvOS; the animated-images setting where there is none).
    var userAutoplaysVideo = true
    private var views: [Viewer: ViewState] = [:]
    /// Whether any view ever reported: a model no view has shown is driven by code.
    private var hadViews = false

    /// Whether some view can see the model now (or none ever reported).
    private var someViewVisible: Bool {
        hadViews ? views.values.contains(where: \.isVisible) : true
    }

    /// Whether an animated image should run now.
    var shouldPlay: Bool {
        switchedOn && appActive && userPlaysAnimatedImages && someViewVisible
    }

    /// Whether a clip should have a player, playing: switched on, auto-play allowed, the app
    /// active, some view showing it visible. Out of sight the player is let go (it holds one of
    /// the device's few hardware decoders), not paused.
    var wantsVideoPlayer: Bool {
        switchedOn && userAutoplaysVideo && appActive && someViewVisible
    }

    /// Changes what `viewer` reported.
    mutating func update(_ viewer: Viewer, _ change: (inout ViewState) -> Void) {
        hadViews = true
        change(&views[viewer, default: ViewState()])
    }

    /// `viewer` is gone: it counts no more.
    mutating func remove(_ viewer: Viewer) {
        views[viewer] = nil
    }

    /// What `viewer` reported, if anything.
    func state(of viewer: Viewer) -> ViewState? { views[viewer] }
}
