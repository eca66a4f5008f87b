/// How a pipeline stops waiting for an image service that does not answer, and how long it then
/// leaves the service alone (``ImagePipeline/Configuration/imageServiceFailover``).
///
/// A rendition whose response has not begun within ``timeout`` is given up and the original
/// loaded instead, so a hung service costs each image seconds, not the loader's idle timeout. A
/// service that failed on its own (no answer in time, a 5xx, a refused or cut connection, an
/// answer that is not an image, credentials refused after signing again) is then skipped for
/// ``coolOff``: the images asked for meanwhile go to their originals at once. After it, one
/// request tries the service again; the others keep going to their originals until it answers.
/// A signer that throws (the app's backend) fails the load with its error, and the loads of the
/// next ``coolOff`` fail with it too without asking the signer again.
public struct ImageServiceFailover: Sendable {
    /// How long the service has to begin its response: 10 seconds by default (a service
    /// rendering a burst of cells on a small machine can take a few).
    public var timeout: Duration
    /// How long a failed service is skipped: 30 seconds by default.
    public var coolOff: Duration
    /// The clock both run on (tests pass one they move themselves).
    public var clock: any Clock<Duration>

    /// A failover policy: 10 s to answer, 30 s skipped after a failure, on the continuous clock.
    public init(timeout: Duration = .seconds(10), coolOff: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock()) {
        self.timeout = timeout
        self.coolOff = coolOff
        self.clock = clock
    }
}

/// Whether a pipeline asks its image service now: the state of ``ImageServiceFailover``'s
/// cool-off, shared by every request of the pipeline.
final class ImageServiceHealth: Sendable {
    private enum State {
        /// The service answers: ask it.
        case up
        /// It failed with `because`: skip it until `until` (on the clock's time line).
        case down(until: Duration, because: ImageError)
        /// One request is asking it again; the others skip it.
        case probing(because: ImageError)
    }

    private let state = LockedState(State.up)
    /// The service's URL could not be made (its signer threw): until when, and why. Loads fail
    /// with that error meanwhile, without asking the signer again.
    private let signer = LockedState<(until: Duration, error: ImageError)?>(nil)
    let clock: LoadClock
    let coolOff: Duration

    init(clock: LoadClock, coolOff: Duration) {
        self.clock = clock
        self.coolOff = coolOff
    }

    /// `nil` when the request should ask the service (it may be the probe after a cool-off);
    /// otherwise the failure it is skipped for.
    func skipReason() -> ImageError? {
        state.withLock { state in
            switch state {
            case .up:
                return nil  // the usual case: no clock read
            case .down(let until, let because):
                guard clock.now() >= until else { return because }
                state = .probing(because: because)
                return nil
            case .probing(let because):
                return because
            }
        }
    }

    /// The service answered (with an image, a 304, or an error about the source).
    func serviceAnswered() {
        state.withLock { $0 = .up }
    }

    /// The service failed on its own: skipped for the cool-off from now.
    func serviceFailed(_ error: ImageError) {
        let until = clock.now() + coolOff
        state.withLock { $0 = .down(until: until, because: error) }
    }

    /// The error a load fails with, without asking the signer, while it is cooling off after
    /// throwing; `nil` when the URL may be made.
    func signerFailure() -> ImageError? {
        signer.withLock { failure in
            guard let current = failure else { return nil }  // the usual case: no clock read
            guard clock.now() < current.until else {
                failure = nil
                return nil
            }
            return current.error
        }
    }

    /// The signer threw `error`: the loads of the cool-off fail with it.
    func signerFailed(_ error: ImageError) {
        let until = clock.now() + coolOff
        signer.withLock { $0 = (until, error) }
    }

    /// A request that asked ended without an answer (cancelled, never sent): if it was the
    /// probe, the next request probes instead.
    func askEndedUnanswered() {
        let now = clock.now()
        state.withLock { state in
            if case .probing(let because) = state { state = .down(until: now, because: because) }
        }
    }
}
