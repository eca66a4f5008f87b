#if canImport(SwiftUI)
import Iris
import SwiftUI

/// An `AsyncImage` that decodes off the main thread at the size it is shown at, caches in memory
/// and on disk, shows a memory-cache hit in the first frame, and cancels when it goes off screen.
///
/// ```swift
/// IrisImage(url: url) { image in
///     image.resizable().scaledToFill()
/// } placeholder: {
///     Color.gray.opacity(0.2)
/// }
/// .frame(width: 100, height: 100)
/// ```
///
/// A thin shell over ``ImageModel``: every decision (size buckets, reloads, cancel and restart,
/// transitions) is the model's. Unless a target size is given, the image is decoded at the size
/// the view is laid out at × the display scale (give the view a frame, as you would for a
/// resizable image); ``init(url:scale:)`` shows the image at its natural size, as `AsyncImage`.
public struct IrisImage<Content: View>: View {
    /// Where the view's model comes from and how its request is sized.
    enum Loading {
        /// A request at its own size (`init(url:scale:)`: natural size).
        case natural(ImageRequest?)
        /// A request decoded at the laid-out size unless it has a target size.
        case sizedToView(ImageRequest?)
        /// A model owned elsewhere; the view shows it and never loads or cancels.
        case shared(ImageModel)
    }

    let loading: Loading
    let transaction: Transaction
    let content: (ImagePhase) -> Content
    var options = IrisImageOptions()

    @State private var ownedModel = ImageModel()
    @Environment(\.displayScale) private var displayScale
    @Environment(\.imagePipeline) private var environmentPipeline

    init(loading: Loading, transaction: Transaction, content: @escaping (ImagePhase) -> Content) {
        self.loading = loading
        self.transaction = transaction
        self.content = content
    }

    public var body: some View {
        switch loading {
        case .shared(let model):
            phaseView(of: model)
        case .natural, .sizedToView:
            phaseView(of: ownedModel)
                .onAppear {
                    startLoading()
                    ownedModel.viewDidAppear()
                }
                .onDisappear { ownedModel.viewDidDisappear() }
                .onGeometryChange(for: CGSize.self) { $0.size } action: { size in
                    ownedModel.viewLayoutDidChange(size: size, scale: Double(displayScale))
                }
                .onChange(of: ownedModel.identity(of: request)) { startLoading() }
                .onChange(of: options.priority) { ownedModel.priority = options.priority ?? .normal }
        }
    }

    /// The content for `model`'s phase, animated with the transaction unless the model says not
    /// to (a memory-cache hit, a reset); an animated image plays through its frames.
    private func phaseView(of model: ImageModel) -> some View {
        framesOrStill(model.phase)
            .animation(model.animatesPhaseChange ? transaction.animation : nil, value: model.phase.kind)
            .onChange(of: model.phase.kind) { report(model.phase) }
    }

    @ViewBuilder
    private func framesOrStill(_ phase: ImagePhase) -> some View {
        // frames: AnimationPlayer (an animation with frameCount > 1 shows its still bitmap until then)
        content(phase)
    }

    /// The request with the view's options applied.
    private var request: ImageRequest? {
        let base: ImageRequest? = switch loading {
        case .natural(let request), .sizedToView(let request): request
        case .shared: nil
        }
        guard var request = base.map(options.applied(to:)) else { return nil }
        if options.scalesTargetToDisplay, request.targetSize != nil { request.scale = Double(displayScale) }
        return request
    }

    private func startLoading() {
        ownedModel.pipeline = options.pipeline ?? environmentPipeline
        switch loading {
        case .natural: ownedModel.load(request)
        case .sizedToView: ownedModel.loadForView(request)
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

/// What the modifiers of ``IrisImage`` set.
struct IrisImageOptions {
    var pipeline: ImagePipeline?
    var priority: ImageRequest.Priority?
    var processors: [any ImageProcessing]?
    var contentMode: Iris.ContentMode?
    var onCompletion: ((Result<LoadedImage, ImageError>) -> Void)?
    var animatesFrames = true
    /// A target size given in points is multiplied by the display scale (the `id:` initialisers).
    var scalesTargetToDisplay = false

    func applied(to request: ImageRequest) -> ImageRequest {
        var request = request
        if let priority { request.priority = priority }
        if let processors { request.processors = processors }
        if let contentMode { request.contentMode = contentMode }
        return request
    }
}
#endif
