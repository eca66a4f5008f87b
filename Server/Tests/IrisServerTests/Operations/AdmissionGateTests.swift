import IrisServer
import IrisServerCore
import Testing

/// The work queue's three bounds, each deterministic: the one slot is held by the test until
/// it lets go, so a waiter's outcome never depends on how fast anything runs.
@Suite struct AdmissionGateTests {
    @Test func theCountBoundRefusesAtOnceAndRecovers() throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 2)
        for _ in 0..<3 { try gate.admit() }
        #expect(throws: ServeError(status: 429, "the service is busy, retry later")) { try gate.admit() }
        gate.dismiss()
        try gate.admit()
        for _ in 0..<3 { gate.dismiss() }
        #expect(gate.load.waiting == 0 && gate.load.running == 0)
    }

    /// A request waiting longer than the queue timeout for a slot is answered 429, and leaves
    /// the queue: the slot then goes to the next one, not to it.
    @Test func aRequestWaitingPastTheQueueTimeoutIs429() async throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 10, queueTimeout: .milliseconds(50))
        try await gate.enter()  // held by the test until the end
        await #expect(throws: ServeError.self) { try await gate.enter(source: "a", bytes: 10) }
        #expect(gate.waitingBytes == 0)
        gate.leave()
        try await gate.enter()  // free again: taken at once
        gate.leave()
        #expect(gate.load.running == 0)
    }

    /// Waiting requests hold their sources' bytes, each source once: many sizes of one source
    /// wait together, a new large source past the budget is refused.
    @Test func theByteBoundCountsEachSourceOnce() async throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 100, maxWaitingBytes: 1000)
        try await gate.enter()
        var waiters: [Task<Void, any Error>] = []
        for _ in 0..<5 {
            waiters.append(
                Task {
                    try await gate.enter(source: "one", bytes: 800)
                    gate.leave()
                })
        }
        while gate.waitingBytes < 800 { await Task.yield() }
        await #expect(throws: ServeError.self) { try await gate.enter(source: "two", bytes: 300) }
        #expect(gate.waitingBytes == 800)
        // The slot goes down the queue: each waiter gets it in turn and gives it back.
        gate.leave()
        for waiter in waiters { try await waiter.value }
        #expect(gate.waitingBytes == 0 && gate.load.running == 0)
    }
}
