/// The clock the service's queues keep their deadlines on, reduced to what a deadline needs:
/// the time since the clock was made, and sleeping until such a time. The service runs on the
/// continuous clock; a test passes a clock that moves only when the test moves it, so that no
/// outcome depends on how fast the machine is.
package struct DeadlineClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// A deadline clock on `clock`, whose time starts now.
    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// The continuous clock (the one the service runs on).
    package static var continuous: DeadlineClock { DeadlineClock(ContinuousClock()) }

    /// The time now, since the clock was made.
    package var now: Duration { elapsed() }

    /// Sleeps until `deadline` (a time since the clock was made); throws when cancelled.
    package func sleep(until deadline: Duration) async throws { try await sleeper(deadline) }
}
