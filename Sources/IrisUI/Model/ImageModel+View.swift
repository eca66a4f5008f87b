import Foundation
import Iris

/// What image views forward to their model: where they are laid out, whether they are visible,
/// whether their app is active, and the `.data` sources they show.
extension ImageModel {
    // MARK: Size

    /// Shows `request` decoded for a view offered `slot` on a display of `displayScale` pixels
    /// per point: the request's target size, scale and content mode come from the slot (a closed
    /// slot is covered unless ``slotContentMode`` says `.fit`), and the image is shown at its
    /// natural point size at the request's `scale`. A new layout decodes again only when it needs
    /// more pixels than were decoded, or less than half on both sides; a
    /// layout that needs the same pixels re-keys the image shown (stores it under the new size)
    /// without decoding. Without a usable display scale (a view in no window) nothing of another
    /// source stays on screen, and the request loads at the next layout.
    public func load(_ request: ImageRequest, in slot: ImageSlot, displayScale: Double) {
        // The request's keys, derived once: its source (data, orientation, processors) is what
        // the decodes for this view, and the image shown, are compared by.
        let source = pipeline.keys(for: request).image.source
        let shownOfSource = imageShown(ofSource: source)
        let plan = sizing.plan(
            for: request, dataKey: source, in: slot, displayScale: displayScale,
            contentMode: slotContentMode,
            shown: shownOfSource.flatMap { image in image.originalSize.map { ($0, image.bitmap.size) } })
        switch plan {
        case .noDisplay:
            if let shown = self.request, pipeline.sourceKey(for: shown) == pipeline.sourceKey(for: request) { return }
            let pending = sizing.viewRequest
            reset()
            sizing.viewRequest = pending
        case .load(let sized):
            show(sized)
        case .rekey(let sized):
            guard let image = shownOfSource, case .success = phase else { return show(sized) }
            // Same source, processors and settings; only the box changed, not the pixels: the
            // cache moves the image to the new key (its pixels are charged once).
            pipeline.cache.store(image, for: sized)
            self.request = sized
            let keys = pipeline.keys(for: sized)
            requestKeys = keys
            if !privateEntries.isEmpty { privateEntries.noteLoad(sized, dataKey: keys.dataKey, pipeline: pipeline) }
        }
    }

    /// The final image shown, when it is of `source` (the same data, orientation and processors)
    /// at any decode size.
    private func imageShown(ofSource source: ImageCacheKey.Source) -> LoadedImage? {
        guard let image = phase.loadedImage, !image.isPreview, let shown = self.request else { return nil }
        // The keys of the request shown are kept while it is (a cancel forgets them: derived again).
        let shownSource = requestKeys?.image.source ?? pipeline.imageKey(for: shown).source
        return shownSource == source ? image : nil
    }

    /// Shows `request` in a view: a request without a target size is decoded for the slot the
    /// view is laid out in (``viewLayoutDidChange(slot:displayScale:)``), once it has been laid
    /// out; a request with a target size loads as it is. `nil` resets at once.
    public func loadForView(_ request: ImageRequest?) {
        sizing.viewRequest = request
        forgetPrivateEntries(keeping: request)
        guard let request else { return reset() }
        guard request.targetSize == nil else { return load(request) }
        guard let viewLayout = sizing.viewLayout else { return showBeforeLayout(request) }
        load(request, in: viewLayout.slot, displayScale: viewLayout.scale)
    }

    /// A view not laid out yet shows the best decode of `request`'s source the memory cache
    /// holds, at once (a second view of a photo already shown: no placeholder, no download);
    /// its first layout then decodes again only if the slot needs more pixels. Without one,
    /// nothing of another request stays up, and the load waits for the layout.
    private func showBeforeLayout(_ request: ImageRequest) {
        let keys = pipeline.keys(for: request)
        guard let cached = pipeline.cache.imageOfSameSource(as: request, keys: keys) else {
            reset()
            sizing.viewRequest = request
            return
        }
        reset()
        sizing.viewRequest = request
        sizing.naturalScale = request.scale
        self.request = request
        requestKeys = keys
        setPhase(.success(cached), animated: false)
    }

    /// The view showing ``loadForView(_:)``'s request was laid out in `slot` on a display of
    /// `displayScale` pixels per point (also when only the scale changed: a window moved to
    /// another screen): decodes again if that needs other pixels (see
    /// ``load(_:in:displayScale:)``).
    public func viewLayoutDidChange(slot: ImageSlot, displayScale: Double) {
        sizing.viewLayout = (slot, displayScale)
        guard let viewRequest = sizing.viewRequest, viewRequest.targetSize == nil else { return }
        load(viewRequest, in: slot, displayScale: displayScale)
    }

    /// The display the view is on changed its scale (a window moved to another screen): decodes
    /// again for the slot last laid out if that needs more pixels.
    public func displayScaleDidChange(_ displayScale: Double) {
        guard let viewLayout = sizing.viewLayout, viewLayout.scale != displayScale else { return }
        viewLayoutDidChange(slot: viewLayout.slot, displayScale: displayScale)
    }

    // MARK: Data sources

    /// The request for the bytes `load` returns, as a view made at `place` shows it (see
    /// `DataSourceKeys`): a new `id` loads again; `cacheKey` shares the image with every request
    /// of that key; without it, views made at the same `place` with equal `Hashable` ids share
    /// it (a `List` row made again finds it in memory), and nothing else does. `place` `nil`, or
    /// an id that is not `Hashable`, keeps the image this model's own.
    public func dataRequest(
        id: some Equatable & Sendable, cacheKey: String? = nil, targetSize: CGSize? = nil,
        place: ViewPlace? = nil,
        load: @escaping @Sendable () async throws -> Data
    ) -> ImageRequest {
        let key = sizing.dataSourceKeys.key(id: id, cacheKey: cacheKey, place: place)
        let request = ImageRequest(source: .data(id: key.string, load: load), targetSize: targetSize)
        if key.isPrivate { privateEntries.addPrivateKey(pipeline.dataKey(for: request)) }
        return request
    }

    /// Removes what was cached under private keys other than `request`'s.
    private func forgetPrivateEntries(keeping request: ImageRequest?) {
        guard !privateEntries.isEmpty else { return }
        privateEntries.removeAll(keepingDataKey: request.map(pipeline.dataKey(for:)))
    }

    // MARK: Visibility

    /// The view that owns this model left the screen: a load in flight is cancelled (to start
    /// again in ``viewDidAppear()``), a scheduled retry waits, the animation pauses unless
    /// another view shows it. A shown image stays (under memory pressure it is let go, and shown
    /// again from the caches when the view comes back).
    public func viewDidDisappear() {
        isOnScreen = false
        observeMemoryPressure(true)
        playback.update { $0.update(.owner) { $0.onScreen = false } }
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
        observeMemoryPressure(false)
        playback.update { $0.update(.owner) { $0.onScreen = true } }
        if retryIsPending {
            retryIsPending = false
            retry()
            return
        }
        guard isSuspended, let request else { return }
        isSuspended = false
        start(request, keys: pipeline.keys(for: request))
    }

    /// The owning view's window became covered or visible again (`window`: macOS occlusion), or
    /// the view scrolled out of or into its scroll view's visible area (`scrollViewport`): the
    /// animation pauses while it cannot be seen. Loads go on. `nil` leaves a condition as it was.
    public func viewVisibilityDidChange(window: Bool? = nil, scrollViewport: Bool? = nil) {
        playback.update {
            $0.update(.owner) { state in
                if let window { state.windowVisible = window }
                if let scrollViewport { state.inScrollViewport = scrollViewport }
            }
        }
    }

    /// The app went to the background (`false`) or came back (`true`): animations pause while
    /// it is not active. Loads go on.
    public func appDidChange(isActive active: Bool) {
        playback.update { $0.appActive = active }
    }

    /// The user's accessibility preferences changed (or are first read): animated images play
    /// only while `playsAnimatedImages` (SwiftUI's `accessibilityPlayAnimatedImages`,
    /// `AccessibilitySettings.animatedImagesEnabled`), clips only while `autoplaysVideo`
    /// (`UIAccessibility.isVideoAutoplayEnabled`); otherwise the first frame or the poster shows.
    /// `nil` leaves a preference as it was.
    public func userPreferencesDidChange(playsAnimatedImages: Bool? = nil, autoplaysVideo: Bool? = nil) {
        playback.update { visibility in
            if let playsAnimatedImages { visibility.userPlaysAnimatedImages = playsAnimatedImages }
            if let autoplaysVideo { visibility.userAutoplaysVideo = autoplaysVideo }
        }
    }

    /// Whether a view needs to follow its scroll views' scrolling to report
    /// ``viewVisibilityDidChange(window:scrollViewport:)``: only while something can play (an
    /// animation, a clip). A still image costs its view nothing per scrolled frame. Observable:
    /// a view reading it is told when it changes.
    public var tracksScrollVisibility: Bool { playback.hasSomethingToPlay }

    /// A view that shows this model without owning it (`IrisImage(model:)`) reports whether it
    /// is on screen, whether its window is visible, whether it is inside its scroll view's
    /// visible area, and whether it animates (`.animatesFrames`): the animation plays while any
    /// view showing it can see it. `nil` leaves a condition as it was. Never loads or cancels.
    public func viewer(
        _ viewer: ImageViewer, onScreen: Bool? = nil, window: Bool? = nil,
        scrollViewport: Bool? = nil, animates: Bool? = nil
    ) {
        playback.update {
            $0.update(.shared(ObjectIdentifier(viewer))) { state in
                if let onScreen { state.onScreen = onScreen }
                if let window { state.windowVisible = window }
                if let scrollViewport { state.inScrollViewport = scrollViewport }
                if let animates { state.animates = animates }
            }
        }
    }

    /// A sharing view is gone for good: it counts no more.
    public func viewerDidLeave(_ viewer: ImageViewer) {
        playback.update { $0.remove(.shared(ObjectIdentifier(viewer))) }
    }

    // MARK: Animation

    /// The phase to draw: ``phase`` with the animation's current frame while animations play
    /// (``playsAnimations``), else ``phase`` (the first frame). Reading it in an observation
    /// scope (a SwiftUI body, `withObservationTracking`) tracks the switch and every frame.
    public var displayedPhase: ImagePhase {
        guard playsAnimations, let player = animationPlayer else { return phase }
        return phase.showing(frame: player.currentFrame)
    }
}
