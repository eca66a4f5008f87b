#if canImport(SwiftUI)
import Combine
import Iris
import SwiftUI

/// An `AsyncImage` that decodes off the main thread at the size it is shown at, caches in memory
/// and on disk, shows a memory-cache hit in the first frame, and cancels when it goes off screen.
///
/// ```swift
/// IrisImage(url: url) { image in
///     image.resizable().scaledToFill()
/// } placeholder: {
///     ProgressView()
/// }
/// .frame(width: 100, height: 100)
/// .clipped()
/// ```
///
/// A thin shell over ``ImageModel``, which makes every decision. Unless a target size is given,
/// the image is decoded for the space the view is *offered* (its slot, ``ImageSlot``), not for
/// the size of the content it shows: a 100×100 frame decodes to cover 100×100 points × the
/// display scale whatever the placeholder is (so `scaledToFill` is sharp without a content-mode
/// modifier; `.contentMode(.fit)` decodes to fit instead); along a scroll view's axis the other
/// side decides; with no size offered at all the image is decoded at its natural size (up to
/// 4,096 px a side). Content shown without `resizable()` keeps its natural point size at the
/// request's `scale`, as with `AsyncImage`. An animated image plays while it can be seen (on
/// screen, inside its scroll view's visible area, its window not covered, its app active) and
/// `.animatesFrames` is on and the user's "Animated Images" accessibility setting allows it. So
/// does a video (MP4, MOV; iOS, iPadOS, tvOS, macOS, visionOS): the phase's image is its poster,
/// and the image the content closure marks with ``SwiftUICore/View/playsVideo()`` plays the clip
/// exactly where the poster is drawn, muted, looping and without touching the app's audio
/// session, from the bytes already loaded, while video auto-play is on (``VideoPlayback``). The
/// default content (`IrisImage(url:)`) marks its image; a closure that does not shows the poster
/// (as NukeUI's custom content does):
///
/// ```swift
/// IrisImage(url: clipURL) { phase in
///     if let image = phase.image {
///         image.resizable().scaledToFill().playsVideo()
///     }
/// }
/// .frame(width: 160, height: 90)
/// .clipShape(.rect(cornerRadius: 8))
/// ```
public struct IrisImage<Content: View>: View {
    /// Where the view's model comes from and how its request is made.
    enum Loading {
        /// A request at its natural size (`init(url:scale:)`).
        case natural(ImageRequest?)
        /// A request decoded for the slot unless it has a target size.
        case sizedToView(ImageRequest?)
        /// The bytes a closure returns: `id` reloads, `cacheKey` shares, `place` scopes the id.
        case data(
            id: any Equatable & Sendable, cacheKey: String?, targetSize: CGSize?, place: ViewPlace,
            load: @Sendable () async throws -> Data)
        /// A model owned elsewhere; the view shows it and never loads or cancels.
        case shared(ImageModel)
    }

    let loading: Loading
    let transaction: Transaction
    let content: (ImagePhase) -> Content
    var options = IrisImageOptions()

    /// The view's own model (made on first use, so a view showing a shared model makes none) and
    /// its viewer token, kept for the life of the view identity.
    @StateObject private var storage = ImageModelStorage()
    @Environment(\.displayScale) private var displayScale
    @Environment(\.scenePhase) private var scenePhase
    @Environment(\.imagePipeline) private var environmentPipeline
    @Environment(\.accessibilityPlayAnimatedImages) private var playsAnimatedImages

    init(loading: Loading, transaction: Transaction, content: @escaping (ImagePhase) -> Content) {
        self.loading = loading
        self.transaction = transaction
        self.content = content
    }

    /// The content for the model's phase, laid out in the slot it is offered.
    public var body: some View {
        switch loading {
        case .shared(let model):
            ImageSlotLayout {
                sharedMarker(of: model)
                contentWithClip(
                    options.animatesFrames ? model.displayedPhase : model.phase,
                    playback: options.animatesFrames ? model.videoPlayback : nil
                )
                .animation(model.animatesPhaseChange ? transaction.animation : nil, value: model.phase.kind)
            }
        case .natural, .sizedToView, .data:
            let model = storage.model
            ImageSlotLayout {
                slotMarker(of: model)
                contentWithClip(model.displayedPhase, playback: model.videoPlayback)
            }
            .onChange(of: model.identity(of: request(for: model))) { startLoading(model) }
            .onChange(of: options.settings.priority) { model.priority = options.settings.priority ?? .normal }
            .onChange(of: options.animatesFrames, initial: true) { model.playsAnimations = options.animatesFrames }
            .onChange(of: displayScale) { model.displayScaleDidChange(Double(displayScale)) }
            .onChange(of: scenePhase, initial: true) { model.appDidChange(isActive: scenePhase != .background) }
            .modifier(AutoplayPreferencesReader(playsAnimatedImages: playsAnimatedImages, model: model))
        }
    }

    /// The content for `phase`, with the model's clip (if it shows a video) handed to it through
    /// the environment: an image the closure marks with ``SwiftUICore/View/playsVideo()`` plays
    /// it exactly where it draws the poster.
    private func contentWithClip(_ phase: ImagePhase, playback: VideoPlayback?) -> some View {
        content(phase).environment(\.videoPlayback, playback)
    }

    /// The clear view that stands for the slot: measured for the decode size, and there to appear,
    /// disappear, scroll out of sight and report completions even when the content is empty.
    private func slotMarker(of model: ImageModel) -> some View {
        Color.clear
            .allowsHitTesting(false)
            .accessibilityHidden(true)
            .onGeometryChange(for: CGSize.self) {
                $0.size
            } action: { size in
                model.viewLayoutDidChange(slot: ImageSlot(measured: size), displayScale: Double(displayScale))
            }
            .onAppear {
                startLoading(model)
                model.viewDidAppear()
            }
            .onDisappear { model.viewDidDisappear() }
            .onScrollVisibilityChange(threshold: 0.01) { model.viewVisibilityDidChange(scrollViewport: $0) }
            .modifier(WindowVisibility { model.viewVisibilityDidChange(window: $0) })
            .onChange(of: model.resultCount) { report(model.phase) }
    }

    /// The marker of a view showing a shared model: it reports only whether the view can be seen
    /// and whether it animates, so the shared animation plays while any of its views is visible.
    private func sharedMarker(of model: ImageModel) -> some View {
        let viewer = storage.viewer
        return Color.clear
            .allowsHitTesting(false)
            .accessibilityHidden(true)
            .onAppear { model.viewer(viewer, onScreen: true, animates: options.animatesFrames) }
            .onDisappear { model.viewerDidLeave(viewer) }
            .onScrollVisibilityChange(threshold: 0.01) { model.viewer(viewer, scrollViewport: $0) }
            .modifier(WindowVisibility { model.viewer(viewer, window: $0) })
            .onChange(of: options.animatesFrames) { model.viewer(viewer, animates: options.animatesFrames) }
            .onChange(of: scenePhase, initial: true) { model.appDidChange(isActive: scenePhase != .background) }
            .modifier(AutoplayPreferencesReader(playsAnimatedImages: playsAnimatedImages, model: model))
            .onChange(of: model.resultCount) { report(model.phase) }
    }

    /// The request with the view's settings applied.
    private func request(for model: ImageModel) -> ImageRequest? {
        let base: ImageRequest? =
            switch loading {
            case .natural(let request), .sizedToView(let request): request
            case .data(let id, let cacheKey, let targetSize, let place, let load):
                model.dataRequest(id: id, cacheKey: cacheKey, targetSize: targetSize, place: place, load: load)
            case .shared: nil
            }
        guard var request = base.map(options.settings.applied(to:)) else { return nil }
        if options.scalesTargetToDisplay, request.targetSize != nil { request.scale = Double(displayScale) }
        return request
    }

    private func startLoading(_ model: ImageModel) {
        model.pipeline = options.pipeline ?? environmentPipeline
        model.slotContentMode = options.settings.contentMode
        // The whole change from placeholder to image animates with the transaction (the layout
        // around it too), as `AsyncImage` does; a memory hit never animates.
        let transaction = transaction
        model.phaseChangeAnimator = transaction.animation == nil ? nil : { change in withTransaction(transaction, change) }
        let request = request(for: model)
        switch loading {
        case .natural:
            if let request { model.load(request, in: .open, displayScale: Double(displayScale)) } else { model.reset() }
        case .sizedToView, .data: model.loadForView(request)
        case .shared: break
        }
    }

    private func report(_ phase: ImagePhase) {
        guard let onCompletion = options.onCompletion else { return }
        switch phase {
        case .success(let image): onCompletion(.success(image))
        case .failure(let error): onCompletion(.failure(error))
        case .empty, .loading, .preview: break
        }
    }
}

/// Holds an ``IrisImage``'s own model (made on first use) and viewer token for the life of the
/// view.
@MainActor
final class ImageModelStorage: ObservableObject {
    private(set) lazy var model = ImageModel()
    let viewer = ImageViewer()
}

/// What the modifiers of ``IrisImage`` set.
struct IrisImageOptions {
    var pipeline: ImagePipeline?
    var settings = ImageViewSettings()
    var onCompletion: ((Result<LoadedImage, ImageError>) -> Void)?
    var animatesFrames = true
    /// A target size given in points is multiplied by the display scale (the `id:` initialisers).
    var scalesTargetToDisplay = false
}
#endif
