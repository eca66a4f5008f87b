import Foundation
import Iris
import Observation

/// The state of one image slot: what to load, how far it got, what to show.
///
/// A view owns one (SwiftUI `@State`, a UIKit view's property), or several views share one that
/// something else owns. All decoding, resizing and caching happens in the ``/Iris/ImagePipeline`` off
/// the main actor; the model only assigns ``phase`` on the main actor.
///
/// The model is three parts with one job each: loading and retrying (this file), sizing and the
/// keys of what a view shows (`ViewSizing`, `DataSourceKeys`), and playing
/// what can play while a view can see it (`ModelPlayback`, `PlaybackVisibility`). Views forward
/// their events (`ImageModel+View.swift`) and decide nothing.
///
/// ```swift
/// let model = ImageModel()
/// model.load(ImageRequest(url: url, targetSize: CGSize(width: 100, height: 100), scale: 3))
/// // Already .success if the image was in the memory cache; otherwise .loading, then
/// // .success or .failure as the pipeline delivers.
/// ```
@MainActor @Observable
public final class ImageModel {
    /// What to show now.
    public var phase: ImagePhase { shown.phase }

    /// The request shown or loading, if any.
    public internal(set) var request: ImageRequest?

    /// Whether a view should animate the change to the current ``phase``: false when it came
    /// from the memory cache within ``load(_:)`` (the image was there before anything was drawn)
    /// or from ``reset()``; true when a load delivered it later.
    public var animatesPhaseChange: Bool { shown.animatesPhaseChange }

    /// The pipeline that loads; requests already running keep theirs.
    public var pipeline: ImagePipeline

    /// Plays the animation of the image shown, when it has more than one frame: views show its
    /// ``AnimationPlayer/currentFrame``. Paused while the owning view is off screen.
    public var animationPlayer: AnimationPlayer? { playback.animationPlayer }

    /// Plays the clip of a video shown (``/Iris/LoadedImage/video``: its poster is the phase's
    /// image); views with a player (Apple platforms) follow it. `nil` when no video is shown. A
    /// video plays as a clip, never frame by frame through ``animationPlayer``.
    public var videoPlayback: VideoPlayback? { playback.videoPlayback }

    /// Whether animations and videos play (a view's "first frame only" switch turns this off):
    /// an animation plays while this is on, its app is active and a view showing it is visible
    /// (see ``viewDidAppear()``, ``viewVisibilityDidChange(window:scrollViewport:)``, ``ImageViewer``).
    public var playsAnimations = true {
        didSet {
            let on = playsAnimations
            playback.update { $0.switchedOn = on }
        }
    }

    /// How a view shows its image in a closed slot: `nil` (what a view that says nothing gets)
    /// decodes to cover the slot, so content drawn with `scaledToFill` is sharp and a slot that
    /// changes shape as the image arrives decodes once; `.fit` decodes to fit inside it (a UIKit
    /// view whose layer fits the image); `.fill` covers it.
    public var slotContentMode: ContentMode?

    /// How many results (a success, a memory hit included, or a failure) the model has shown: a
    /// view reports each completion when this changes, also when a new image replaces another
    /// without the phase's kind changing (URL A, then URL B from the memory cache).
    public var resultCount: Int { shown.resultCount }

    /// ``phase``, ``animatesPhaseChange`` and ``resultCount``, which change together: one
    /// observable write a change (a memory hit's main-actor cost is mostly such writes).
    private var shown = Shown()

    /// The clock that animation players, scheduled retries and progress pacing run on.
    @ObservationIgnored public var clock: any Clock<Duration> = ContinuousClock()

    /// The least time between two progress phases (``ImagePhase/loading(_:)`` with a new
    /// ``/Iris/ImageTask/Progress``), on ``clock``: a view showing the model renders at most this
    /// often while bytes arrive, however small the chunks. The first progress of a load (which
    /// gives the total) shows at once; the latest one received in each interval shows at its end.
    /// Ten a second by default; `.zero` shows every chunk.
    @ObservationIgnored public var progressInterval: Duration = .milliseconds(100)

    /// Retries failed loads by itself when set; `nil` (the default) leaves it to ``retry()``.
    public var retryPolicy: RetryPolicy?

    /// How urgent the current load is. ``load(_:)`` takes the request's priority; setting this
    /// changes the running task's priority (e.g. lower it for a cell scrolled half away).
    public var priority: ImageRequest.Priority {
        get { currentPriority }
        set {
            currentPriority = newValue
            inFlightTask?.priority = newValue
        }
    }

    private var currentPriority: ImageRequest.Priority = .normal
    /// Keys of ``request`` in the pipeline: what makes two requests "the same image".
    @ObservationIgnored var requestKeys: ImageRequestKeys?
    /// Counts loads; events of an older load are dropped, so a replaced request never lands.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var observer: Task<Void, Never>?
    @ObservationIgnored private var failedAttempts = 0
    /// Paces progress phases (``progressInterval``): the interval running since the last shown.
    @ObservationIgnored private var progressPause: Task<Void, Never>?
    /// The newest progress received during ``progressPause``, shown at its end.
    @ObservationIgnored private(set) var heldProgress: ImageTask.Progress?
    /// A load cancelled because its view left the screen, to start again when it comes back.
    @ObservationIgnored var isSuspended = false
    /// A retry that came due (or was waiting) while the view was off screen.
    @ObservationIgnored var retryIsPending = false
    @ObservationIgnored var retryTimer: Task<Void, Never>?
    /// Whether the owning view is on screen: loads and retries wait while it is not.
    @ObservationIgnored var isOnScreen = true
    /// The sizing part: what a view asked for, its slot, what was decoded for it.
    @ObservationIgnored var sizing = ViewSizing()
    /// The playing part: the animation player, the video playback, the visibility policy.
    @ObservationIgnored let playback = ModelPlayback()
    /// What this model cached under keys private to its view, removed when those keys die.
    @ObservationIgnored var privateEntries = PrivateCacheEntries()
    /// Hears when a revalidation replaces the bytes of what is shown (HTTP caching): the new
    /// image is then loaded and swapped in with no placeholder between.
    @ObservationIgnored private var changeObservation: (key: String, observation: ImageChangeObservation)?
    /// The monitor whose memory-pressure events make an off-screen model let go of its image
    /// (``MemoryPressureMonitor/shared`` unless a test gives its own).
    @ObservationIgnored var memoryPressureMonitor = MemoryPressureMonitor.shared
    /// Held only while the owning view is off screen: the models on screen, and those no view
    /// shows, cost the monitor nothing.
    @ObservationIgnored private var memoryPressureObservation: MemoryPressureObservation?
    /// The running pipeline task.
    @ObservationIgnored var inFlightTask: ImageTask?
    /// Sees every phase as it is set (tests record exact sequences with it).
    @ObservationIgnored var phaseObserver: ((ImagePhase) -> Void)?

    /// Wraps each animated phase change (a load's result or preview arriving; never a memory
    /// hit or a reset): a SwiftUI view passes `{ withTransaction(transaction, $0) }`, so the whole
    /// change (placeholder to image, and the layout around it) animates, as `AsyncImage`'s
    /// `transaction` does. `nil` applies changes as they come.
    @ObservationIgnored public var phaseChangeAnimator: ((() -> Void) -> Void)?

    /// Makes an empty model that loads through `pipeline`.
    public init(pipeline: ImagePipeline = .shared) {
        self.pipeline = pipeline
    }

    /// Cancels the load in flight and removes what was cached under keys private to the view,
    /// on the main actor (where the model's state lives) wherever the last reference went.
    isolated deinit {
        inFlightTask?.cancel()
        privateEntries.removeAll()
    }

    // MARK: Loading

    /// Shows `request`: cancels what was loading and starts loading it. A memory-cache hit is
    /// shown before this returns (no placeholder is ever drawn for it). Loading the request that
    /// is already shown or loading does nothing; `nil` resets.
    public func load(_ request: ImageRequest?) {
        sizing.naturalScale = nil
        show(request)
    }

    /// ``load(_:)`` keeping ``naturalScale``.
    func show(_ request: ImageRequest?) {
        guard let request else { return reset() }
        let keys = pipeline.keys(for: request)
        if keys.identity == requestKeys?.identity, !isSuspended {
            switch phase {
            case .loading, .preview, .success, .failure: return
            case .empty: break
            }
        }
        start(request, keys: keys)
    }

    /// Stops loading; the phase goes back to ``ImagePhase/empty`` unless an image is shown.
    public func cancel() {
        stopObserving()
        isSuspended = false
        if case .preview(let image) = phase {
            // A progressive preview goes; a smaller image of the same source shown while a
            // larger one loaded stays, and loading the larger one again is not a no-op.
            if !image.isPreview { requestKeys = nil }
            setPhase(image.isPreview ? .empty : .success(image), animated: false)
        } else if case .loading = phase {
            setPhase(.empty, animated: false)
        }
    }

    /// Stops loading and forgets the request: the phase is ``ImagePhase/empty``.
    public func reset() {
        stopObserving()
        isSuspended = false
        retryIsPending = false
        request = nil
        requestKeys = nil
        changeObservation = nil
        sizing.viewRequest = nil
        sizing.forgetDecodes()
        failedAttempts = 0
        if phase.kind != .empty { setPhase(.empty, animated: false) }  // an empty model stays quiet
    }

    /// Loads the current request again after a failure (or a cancel), skipping nothing: the
    /// caches are read as the request says. After success, a video whose player failed tries its
    /// player again (``VideoPlayback/retry()``). Does nothing while loading.
    public func retry() {
        guard let request else { return }
        switch phase {
        case .failure, .empty: start(request, keys: pipeline.keys(for: request))
        case .success: videoPlayback?.retry()
        case .loading, .preview: return
        }
    }

    /// What makes two requests show the same image through this model's pipeline: a view
    /// reloads when its request's identity changes (a new URL, a new `.data` id, other
    /// processors), as `.task(id:)` does.
    public func identity(of request: ImageRequest?) -> ImageRequestIdentity? {
        request.map(pipeline.identity(of:))
    }

    // MARK: Memory pressure

    /// Hears memory pressure while the owning view is off screen (`on`), not otherwise.
    func observeMemoryPressure(_ on: Bool) {
        guard on else { return memoryPressureObservation = nil }
        guard memoryPressureObservation == nil else { return }
        let model = WeakImageModel(self)
        memoryPressureObservation = memoryPressureMonitor.observe { _ in model.value?.memoryPressureDidOccur() }
    }

    /// The system wants memory back: a model whose view is off screen lets go of its image (and
    /// a video's clip), so the caches' trim that follows frees the pixels; the view shows the
    /// image again from the caches (memory, then disk) when it comes back
    /// (``viewDidAppear()``). A model on screen, or driven by code, keeps what it shows.
    func memoryPressureDidOccur() {
        guard !isOnScreen, request != nil, phase.loadedImage != nil else { return }
        stopObserving()
        isSuspended = true
        setPhase(.empty, animated: false)
    }

    // MARK: Running a load

    func start(_ request: ImageRequest, keys: ImageRequestKeys, keepingShownImage: Bool = false) {
        stopObserving()
        isSuspended = false
        retryIsPending = false
        if keys.image != requestKeys?.image { failedAttempts = 0 }
        // An image of the same source stays up while a larger decode of it loads.
        let previous = requestKeys?.image ?? self.request.map(pipeline.imageKey(for:))
        let shown: LoadedImage? = if let image = phase.loadedImage, previous?.hasSameData(as: keys.image) == true { image } else { nil }
        self.request = request
        requestKeys = keys
        if !privateEntries.isEmpty { privateEntries.noteLoad(request, dataKey: keys.dataKey, pipeline: pipeline) }
        if currentPriority != request.priority { currentPriority = request.priority }
        observeChanges(of: request, dataKey: keys.dataKey)

        if let hit = pipeline.cachedImage(for: request, keys: keys) {
            setPhase(.success(hit), animated: false)
            return
        }
        generation += 1
        let generation = generation
        let task = pipeline.task(for: request, keys: keys)
        inFlightTask = task
        if let result = task.result {  // raced into the memory cache: shown at once, as a hit
            finish(result, generation: generation, animated: false)
            return
        }
        // A refresh after the source changed keeps the old image up until the new one lands.
        if !(keepingShownImage && phase.kind == .success) {
            setPhase(shown.map { .preview($0) } ?? .loading(nil), animated: false)
        }
        let forwardsPreviews = pipeline.configuration.isProgressiveDecodingEnabled
        observer = Task { [weak self] in
            // Progress and previews first, in order; the result once the streams have ended
            // (they end when the task does), so nothing of a load lands after its result. The
            // forwarders hold the model weakly: a model that goes away cancels its task.
            let model = WeakImageModel(self)
            if forwardsPreviews {
                await withDiscardingTaskGroup { group in
                    group.addTask { await Self.forwardPreviews(of: task, to: model, generation: generation) }
                    await Self.forwardProgress(of: task, to: model, generation: generation)
                }
            } else {
                await Self.forwardProgress(of: task, to: model, generation: generation)
            }
            guard let result = task.result else { return }  // cancelled before it ended
            self?.finish(result, generation: generation, animated: true)
        }
    }

    /// Listens for replacements of `request`'s bytes (its disk-cache key `key`), once per source.
    private func observeChanges(of request: ImageRequest, dataKey key: String) {
        switch request.source {
        case .url, .urlRequest: break
        case .file, .data: return changeObservation = nil  // only HTTP data is revalidated
        }
        guard changeObservation?.key != key else { return }
        let model = WeakImageModel(self)
        let observation = pipeline.observeChanges(of: request) {
            Task { @MainActor in model.value?.sourceDidChange(key: key) }
        }
        changeObservation = (key, observation)
    }

    /// A revalidation found new bytes for the source shown (the images of the old ones have left
    /// the memory cache): loads it again, keeping the old image up until the new one arrives, so
    /// the view swaps it in place with no placeholder or flash. A load in flight, a failure or
    /// an empty model is left alone.
    func sourceDidChange(key: String) {
        guard let request, let requestKeys, changeObservation?.key == key, phase.kind == .success else { return }
        start(request, keys: requestKeys, keepingShownImage: true)
    }

    private static func forwardProgress(of task: ImageTask, to model: WeakImageModel, generation: Int) async {
        for await progress in task.progress { model.value?.receive(progress, generation: generation) }
    }

    private static func forwardPreviews(of task: ImageTask, to model: WeakImageModel, generation: Int) async {
        for await preview in task.previews { model.value?.receive(preview: preview, generation: generation) }
    }

    /// Shows `progress` unless one was shown less than ``progressInterval`` ago; then it is held
    /// (replacing one held before) and shown when the interval ends.
    private func receive(_ progress: ImageTask.Progress, generation: Int) {
        guard generation == self.generation else { return }
        switch phase {
        case .loading: break
        case .empty, .preview, .success, .failure: return  // a shown preview stays up
        }
        guard progressPause == nil else { return heldProgress = progress }
        setPhase(.loading(progress), animated: false)
        guard progressInterval > .zero else { return }
        progressPause = Task { [weak self, clock, progressInterval] in
            do {
                try await clock.sleepFromNow(progressInterval)
            } catch {
                return  // cancelled: the load ended or was replaced
            }
            guard let self, generation == self.generation else { return }
            self.progressPause = nil
            guard let held = self.heldProgress else { return }
            self.heldProgress = nil
            self.receive(held, generation: generation)
        }
    }

    private func receive(preview: LoadedImage, generation: Int) {
        guard generation == self.generation else { return }
        setPhase(.preview(preview), animated: true)
    }

    private func finish(_ result: Result<LoadedImage, ImageError>, generation: Int, animated: Bool) {
        guard generation == self.generation else { return }
        inFlightTask = nil
        observer = nil
        stopPacingProgress()
        switch result {
        case .success(let image):
            failedAttempts = 0
            setPhase(.success(image), animated: animated)
        case .failure(.cancelled):
            setPhase(.empty, animated: false)
        case .failure(let error):
            failedAttempts += 1
            setPhase(.failure(error), animated: animated)
            scheduleRetry(after: error)
        }
    }

    /// Retries after the policy's delay on ``clock``; only while the view is on screen (off
    /// screen the retry waits for ``viewDidAppear()``).
    private func scheduleRetry(after error: ImageError) {
        guard let retryPolicy, let delay = retryPolicy.delay(afterFailure: failedAttempts, error: error) else { return }
        guard isOnScreen else {
            retryIsPending = true
            return
        }
        let generation = generation
        retryTimer = Task { [weak self, clock] in
            do {
                try await clock.sleepFromNow(delay)
            } catch {
                return  // cancelled: a new load, or off screen
            }
            guard let self, generation == self.generation else { return }
            self.retryTimer = nil
            self.retry()
        }
    }

    private func stopObserving() {
        generation += 1
        observer?.cancel()
        observer = nil
        stopPacingProgress()
        retryTimer?.cancel()
        retryTimer = nil
        inFlightTask?.cancel()
        inFlightTask = nil
    }

    private func stopPacingProgress() {
        progressPause?.cancel()
        progressPause = nil
        heldProgress = nil
    }

    /// Applies a phase change: through ``phaseChangeAnimator`` when it is animated.
    func setPhase(_ newPhase: ImagePhase, animated: Bool) {
        let newPhase = atNaturalScale(newPhase)
        if animated, let phaseChangeAnimator {
            phaseChangeAnimator { self.applyPhase(newPhase, animated: true) }
        } else {
            applyPhase(newPhase, animated: animated)
        }
    }

    /// `phase` with its image at its natural scale when the request was sized for a view's slot.
    private func atNaturalScale(_ phase: ImagePhase) -> ImagePhase {
        guard let naturalScale = sizing.naturalScale else { return phase }
        switch phase {
        case .success(var image):
            image.scale = ViewSizing.naturalScale(of: image, requestScale: naturalScale)
            return .success(image)
        case .preview(var image):
            image.scale = ViewSizing.naturalScale(of: image, requestScale: naturalScale)
            return .preview(image)
        case .empty, .loading, .failure:
            return phase
        }
    }

    private func applyPhase(_ newPhase: ImagePhase, animated: Bool) {
        playback.show(newPhase, dataKey: { [request, pipeline] in request.map(pipeline.sourceKey(for:)) }, clock: clock)
        let isResult =
            switch newPhase {
            case .success, .failure: true
            case .empty, .loading, .preview: false
            }
        shown = Shown(phase: newPhase, animatesPhaseChange: animated, resultCount: shown.resultCount &+ (isResult ? 1 : 0))
        phaseObserver?(newPhase)
    }
}

/// What an ``ImageModel`` shows, set in one piece.
private struct Shown {
    var phase: ImagePhase = .empty
    var animatesPhaseChange = false
    var resultCount = 0
}

/// A model, held weakly by the tasks that forward a load's events to it.
private struct WeakImageModel: Sendable {
    weak var value: ImageModel?
    init(_ value: ImageModel?) { self.value = value }
}
