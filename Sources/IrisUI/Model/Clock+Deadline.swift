/// Sleeps on `clock` for `duration` counted from the moment of the call: the deadline is read on
/// the caller's executor before anything suspends, so a test that advances a manual clock right
/// after scheduling (on the same actor) never races the sleeper's reading of "now".
nonisolated(nonsending) func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
    let deadline = clock.now.advanced(by: duration)
    try await clock.sleep(until: deadline, tolerance: nil)
}
