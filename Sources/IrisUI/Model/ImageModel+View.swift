import Foundation
import Iris

/// What image views forward to their model: where they are laid out, whether they are on screen,
/// whether their app is active, and the `.data` sources they show.
extension ImageModel {
    // MARK: Size

    /// Shows `request` decoded for a view offered `slot` on a display of `displayScale` pixels
    /// per point (``ViewTargetSize/decodeTarget(for:displayScale:imageScale:contentMode:)``): the
    /// request's target size, scale and content mode come from the slot. Reloads only when the
    /// view grows past what was requested for the same source, never when it shrinks.
    public func load(_ request: ImageRequest, in slot: ImageSlot, displayScale: Double) {
        guard let target = ViewTargetSize.decodeTarget(for: slot, displayScale: displayScale, imageScale: request.scale,
                                                       contentMode: request.contentMode) else { return }
        let pixels = sizeTracker.target(for: target.pixels, dataKey: pipeline.dataKey(for: request))
        var sized = request
        sized.targetSize = CGSize(width: Double(pixels.width) / target.scale, height: Double(pixels.height) / target.scale)
        sized.scale = target.scale
        sized.contentMode = target.contentMode
        load(sized)
    }

    /// Shows `request` in a view: a request without a target size is decoded for the slot the
    /// view is laid out in (``viewLayoutDidChange(slot:displayScale:)``), once it has been laid
    /// out; a request with a target size loads as it is. `nil` resets at once.
    public func loadForView(_ request: ImageRequest?) {
        viewRequest = request
        guard let request else { return reset() }
        guard request.targetSize == nil else { return load(request) }
        guard let viewLayout else {                     // not laid out yet: nothing of another request stays up
            reset()
            viewRequest = request
            return
        }
        load(request, in: viewLayout.slot, displayScale: viewLayout.scale)
    }

    /// The view showing ``loadForView(_:)``'s request was laid out in `slot` on a display of
    /// `displayScale` pixels per point (also when only the scale changed: a window moved to
    /// another screen): reloads if that needs more pixels than were decoded.
    public func viewLayoutDidChange(slot: ImageSlot, displayScale: Double) {
        viewLayout = (slot, displayScale)
        guard let viewRequest, viewRequest.targetSize == nil else { return }
        load(viewRequest, in: slot, displayScale: displayScale)
    }

    /// The display the view is on changed its scale (a window moved to another screen): decodes
    /// again for the slot last laid out if that needs more pixels.
    public func displayScaleDidChange(_ displayScale: Double) {
        guard let viewLayout, viewLayout.scale != displayScale else { return }
        viewLayoutDidChange(slot: viewLayout.slot, displayScale: displayScale)
    }

    // MARK: Data sources

    /// The request for the bytes `load` returns, as a view shows it (see ``DataSourceKeys``): a
    /// new `id` loads again; `cacheKey` shares the image with every request of that key, and
    /// without it the image is this model's own.
    public func dataRequest(id: some Equatable & Sendable, cacheKey: String? = nil, targetSize: CGSize? = nil,
                            load: @escaping @Sendable () async throws -> Data) -> ImageRequest {
        ImageRequest(source: .data(id: dataSourceKeys.key(id: id, cacheKey: cacheKey), load: load), targetSize: targetSize)
    }

    // MARK: Visibility

    /// The view that owns this model left the screen: a load in flight is cancelled (to start
    /// again in ``viewDidAppear()``), a scheduled retry waits, the animation pauses. A shown
    /// image stays.
    public func viewDidDisappear() {
        isOnScreen = false
        updatePlayback()
        if let retryTimer {
            retryTimer.cancel()
            self.retryTimer = nil
            retryIsPending = true
        }
        guard phase.isLoading else { return }
        cancel()
        isSuspended = true
    }

    /// The view that owns this model is on screen again: a load cancelled by
    /// ``viewDidDisappear()`` starts again, a retry that waited runs, the animation plays on.
    public func viewDidAppear() {
        isOnScreen = true
        updatePlayback()
        if retryIsPending {
            retryIsPending = false
            retry()
            return
        }
        guard isSuspended, let request else { return }
        isSuspended = false
        start(request, keys: pipeline.keys(for: request))
    }

    /// The app went to the background (`false`) or came back (`true`): animations pause while
    /// it is not active. Loads go on.
    public func appDidChange(isActive active: Bool) {
        isActive = active
        updatePlayback()
    }

    // MARK: Animation

    /// The phase to draw: ``phase`` with the animation's current frame while animations play
    /// (``playsAnimations``), else ``phase`` (the first frame). Reading it in an observation
    /// scope (a SwiftUI body, `withObservationTracking`) tracks the switch and every frame.
    public var displayedPhase: ImagePhase {
        guard playsAnimations, let player = animationPlayer else { return phase }
        return phase.showing(frame: player.currentFrame)
    }

    /// Whether the animation should run now: switched on, on screen, app active.
    var shouldPlayAnimations: Bool { playsAnimations && isOnScreen && isActive }

    /// Plays or pauses the player to match ``shouldPlayAnimations``.
    func updatePlayback() {
        guard let animationPlayer else { return }
        if shouldPlayAnimations { animationPlayer.play() } else { animationPlayer.pause() }
    }
}
