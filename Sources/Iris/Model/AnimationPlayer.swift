import Observation

/// Plays an ``Animation``: which frame to show now, as a function of the time played, on an
/// injected clock.
///
/// The frame shown is decided by elapsed time (``Animation/frameIndex(atElapsed:)``), so a late
/// tick skips frames instead of slowing the animation down, and nothing drifts. Frames come from
/// the animation's bounded buffer, decoded off the main actor. Time stops while paused; a view
/// pauses it when it goes off screen. Tests drive it with a manual clock.
///
/// The player advances by itself after ``play()`` (sleeping on its clock until the next frame
/// is due); a view may also call ``tick()`` from a display link.
@MainActor @Observable
public final class AnimationPlayer {
    /// The animation played.
    public let animation: Animation
    /// The frame to show now.
    public private(set) var currentFrame: Bitmap
    /// The index of ``currentFrame``.
    public private(set) var currentIndex = 0
    /// Whether time is running.
    public private(set) var isPlaying = false
    /// The error of the last frame that could not be produced (the previous frame stays up).
    public private(set) var frameError: ImageError?

    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var elapsedBeforePlay: Duration = .zero
    @ObservationIgnored private var playStarted: (any InstantProtocol<Duration>)?
    @ObservationIgnored private var runner: Task<Void, Never>?
    /// The newest index asked for; a slower, older frame load never overwrites it.
    @ObservationIgnored private var requestedIndex = 0

    /// Makes a paused player showing `firstFrame` (frame 0, usually ``LoadedImage/bitmap``);
    /// time is read from `clock`.
    public init(animation: Animation, firstFrame: Bitmap, clock: any Clock<Duration> = ContinuousClock()) {
        self.animation = animation
        self.currentFrame = firstFrame
        self.clock = clock
    }

    isolated deinit {
        runner?.cancel()
    }

    /// Time played so far, in seconds.
    public var elapsed: Double {
        var total = elapsedBeforePlay
        if let playStarted { total += Self.duration(from: playStarted, on: clock) }
        return Self.seconds(total)
    }

    /// Starts or resumes time; the player advances frames until paused or, for a finite loop
    /// count, until the last loop ends (then it pauses on the last frame).
    public func play() {
        guard !isPlaying, animation.frameCount > 1 else { return }
        isPlaying = true
        playStarted = clock.now
        runner = Task { [weak self] in await self?.run() }
    }

    /// Stops time; ``play()`` resumes from the same point.
    public func pause() {
        guard isPlaying else { return }
        elapsedBeforePlay += playStarted.map { Self.duration(from: $0, on: clock) } ?? .zero
        playStarted = nil
        isPlaying = false
        runner?.cancel()
        runner = nil
    }

    /// Shows the frame due now (a display link calls this every refresh; cheap when nothing
    /// changed).
    public func tick() {
        show(animation.frameIndex(atElapsed: elapsed))
    }

    // MARK: Running

    private func run() async {
        while isPlaying, !Task.isCancelled {
            tick()
            guard let wait = secondsToNextFrame(afterElapsed: elapsed) else {
                pause()                                  // the last loop is over: the last frame stays
                return
            }
            do {
                try await Self.sleep(seconds: wait, on: clock)
            } catch {
                return
            }
        }
    }

    private func show(_ index: Int) {
        guard index != requestedIndex else { return }
        requestedIndex = index
        Task { [weak self, animation] in
            do throws(ImageError) {
                let frame = try await animation.frame(at: index)
                guard let self, self.requestedIndex == index else { return }
                self.currentFrame = frame
                self.currentIndex = index
                self.frameError = nil
            } catch {
                self?.frameError = error
            }
        }
    }

    /// Seconds from `elapsed` until the frame shown changes; `nil` once a finite loop count has
    /// played out.
    func secondsToNextFrame(afterElapsed elapsed: Double) -> Double? {
        let count = animation.frameCount
        let loop = (0..<count).reduce(0) { $0 + animation.displayDuration(at: $1) }
        guard count > 1, loop > 0 else { return nil }
        if animation.loopCount > 0, elapsed >= loop * Double(animation.loopCount) { return nil }
        var boundary = (elapsed / loop).rounded(.down) * loop
        for index in 0..<count {
            boundary += animation.displayDuration(at: index)
            if boundary > elapsed { return boundary - elapsed }
        }
        return loop - elapsed.truncatingRemainder(dividingBy: loop)
    }

    // MARK: Clock arithmetic (the clock is an existential)

    private static func duration<C: Clock<Duration>>(from start: any InstantProtocol<Duration>, on clock: C) -> Duration {
        guard let start = start as? C.Instant else { return .zero }
        return start.duration(to: clock.now)
    }

    private static func sleep<C: Clock<Duration>>(seconds: Double, on clock: C) async throws {
        try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds)), tolerance: nil)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
