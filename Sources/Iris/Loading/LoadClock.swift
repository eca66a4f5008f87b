/// The clock a loader's idle timeouts run on: `ContinuousClock` in use; a test passes a clock
/// it moves itself, so what it checks never depends on how fast the machine is.
struct LoadClock: Sendable {
    /// Time since the clock was made.
    let now: @Sendable () -> Duration
    /// Suspends until ``now`` reaches the given time; throws when the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Whether this is the wall clock that URLSession's own timeouts also run on.
    let isWallClock: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        self.init(clock, isWallClock: false)
    }

    private init<C: Clock>(_ clock: C, isWallClock: Bool) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
        self.isWallClock = isWallClock
    }

    /// Real time.
    static var continuous: LoadClock { LoadClock(ContinuousClock(), isWallClock: true) }
}
