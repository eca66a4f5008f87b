extension Clock where Duration == Swift.Duration {
    /// Sleeps for `duration` counted from the moment of the call: the deadline is read on the
    /// caller's executor before anything suspends, so a test that advances a manual clock right
    /// after scheduling (on the same actor) never races the sleeper's reading of "now".
    nonisolated(nonsending) func sleepFromNow(_ duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }
}
