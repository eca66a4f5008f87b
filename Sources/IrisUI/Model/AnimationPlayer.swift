import Iris
import Observation

/// Plays an ``/Iris/Animation``: which frame to show now, as a function of the time played, on an
/// injected clock.
///
/// The frame shown is decided by elapsed time (``/Iris/AnimationTimeline``, computed once), so a late
/// wake-up skips frames instead of slowing the animation down, and nothing drifts. Frames come
/// from the animation's bounded buffer, decoded off the main actor.
///
/// After ``play()`` the player advances by itself: it sleeps on its clock until the next frame is
/// due, shows it, and sleeps again, so it wakes the main actor once per frame change and never
/// between them (no display link is needed). It stops waking when paused, when a finite loop
/// count has played out, and when it is released: its own runner holds it only weakly, so a
/// player nobody shows (its model gone, its screen popped) ends at once.
@MainActor @Observable
public final class AnimationPlayer {
    /// The animation played.
    public let animation: Animation
    /// When each frame is shown.
    public let timeline: AnimationTimeline
    /// The frame to show now.
    public private(set) var currentFrame: Bitmap
    /// The index of ``currentFrame``.
    public private(set) var currentIndex = 0
    /// Whether time is running.
    public private(set) var isPlaying = false
    /// Whether a finite loop count has played out: the last frame stays and ``play()`` does
    /// nothing.
    public private(set) var hasFinished = false
    /// The error of the last frame that could not be produced (the previous frame stays up).
    public private(set) var frameError: ImageError?

    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var elapsedBeforePlay: Duration = .zero
    @ObservationIgnored private var playStarted: (any InstantProtocol<Duration>)?
    @ObservationIgnored private var runner: Task<Void, Never>?
    /// The newest index asked for; a slower, older frame load never overwrites it.
    @ObservationIgnored private var requestedIndex = 0

    /// Makes a paused player showing `firstFrame` (frame 0, usually ``/Iris/LoadedImage/bitmap``);
    /// time is read from `clock`.
    public init(animation: Animation, firstFrame: Bitmap, clock: any Clock<Duration> = ContinuousClock()) {
        self.animation = animation
        self.timeline = AnimationTimeline(animation)
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
    /// count, until the last loop ends (then it stays on the last frame and stops for good).
    public func play() {
        guard !isPlaying, timeline.isAnimated, !hasFinished else { return }
        isPlaying = true
        playStarted = clock.now
        // The runner holds the player weakly: `self?` makes a strong reference only for the
        // length of one `advance()`, never across a sleep.
        runner = Task { [weak self, clock] in
            while let wait = self?.advance() {
                do {
                    try await clock.sleepFromNow(.seconds(wait))
                } catch {
                    return  // cancelled: paused or released
                }
            }
        }
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

    /// Shows the frame due now; cheap when nothing changed. The player calls this itself while
    /// playing.
    public func tick() {
        show(timeline.frameIndex(atElapsed: elapsed))
    }

    // MARK: Running

    /// Shows the frame due now and says how long to sleep until the next one; `nil` when the
    /// runner should end (paused, or the last loop is over).
    private func advance() -> Double? {
        guard isPlaying, !Task.isCancelled else { return nil }
        tick()
        guard let wait = timeline.secondsToNextChange(afterElapsed: elapsed) else {
            pause()  // the last loop is over: the last frame stays
            hasFinished = true
            return nil
        }
        return wait
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

    // MARK: Clock arithmetic (the clock is an existential)

    private static func duration<C: Clock<Duration>>(from start: any InstantProtocol<Duration>, on clock: C) -> Duration {
        guard let start = start as? C.Instant else { return .zero }
        return start.duration(to: clock.now)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
