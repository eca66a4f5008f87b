@testable import IrisServer
import Foundation
import IrisServerCore
import Testing

/// Each source host's download slots: a host fills its own, never another's; past its queue, or
/// when its wait is expected to outlast the deadline, a download is refused at once; a download
/// still waiting at its deadline is refused then. Time is the test's clock: nothing depends on
/// how fast the machine runs (the suite's time limit is a hang detector).
@Suite(.timeLimit(.minutes(2))) struct HostDownloadGateTests {
    @Test func aHostFullOfDownloadsHoldsNoOtherHost() async throws {
        let gate = HostDownloadGate(maxRunning: 2, maxWaiting: 0, maxWait: .seconds(10), clock: DeadlineClock(TestClock()))
        let first = try await gate.enter("slow.test:80")
        let second = try await gate.enter("slow.test:80")
        await #expect(throws: HostDownloadGate.queueFull) { try await gate.enter("slow.test:80") }
        let other = try await gate.enter("fast.test:80")
        #expect(gate.load(of: "slow.test:80") == (2, 0) && gate.load(of: "fast.test:80") == (1, 0))
        for permit in [first, second, other] { gate.leave(permit) }
        #expect(gate.load(of: "slow.test:80") == (0, 0) && gate.load(of: "fast.test:80") == (0, 0))
    }

    /// Waiters take the slot in arrival order; one still waiting at its deadline is answered
    /// then, and leaves the queue.
    @Test func aDownloadWaitingPastItsDeadlineIsRefused() async throws {
        let clock = TestClock()
        let gate = HostDownloadGate(maxRunning: 1, maxWaiting: 5, maxWait: .seconds(10), clock: DeadlineClock(clock))
        let running = try await gate.enter("h:80")
        let waiter = Task { () async throws(ServeError) -> HostDownloadGate.Permit in try await gate.enter("h:80") }
        await clock.sleepers(atLeast: 1)  // queued, its deadline armed
        #expect(gate.load(of: "h:80") == (1, 1))
        clock.advance(by: .seconds(10))
        await #expect(throws: HostDownloadGate.tooSlow) { try await waiter.value }
        #expect(gate.load(of: "h:80") == (1, 0))
        gate.leave(running)
        #expect(gate.load(of: "h:80") == (0, 0))
    }

    /// Once a download of the host has ended, its time says how long a place in the queue
    /// waits: the waiters it puts past their deadline are answered when it ends, and a newcomer
    /// whose wait would outlast the deadline is answered on arrival; the others are served.
    @Test func aWaitExpectedToOutlastTheDeadlineIsRefusedAtOnce() async throws {
        let clock = TestClock()
        let gate = HostDownloadGate(maxRunning: 1, maxWaiting: 10, maxWait: .seconds(10), clock: DeadlineClock(clock))
        let first = try await gate.enter("h:80")
        var waiters: [Task<HostDownloadGate.Permit, any Error>] = []
        for count in 1...3 {
            waiters.append(Task { try await gate.enter("h:80") })
            await clock.sleepers(atLeast: count)  // in arrival order
        }
        clock.advance(by: .seconds(4))
        gate.leave(first)  // took 4 s: the next waiter starts, the second waits 4 s, the third 8
        let second = try await waiters[0].value
        await #expect(throws: HostDownloadGate.tooSlow) { try await waiters[2].value }  // 4 + 8 > 10
        #expect(gate.load(of: "h:80") == (1, 1))
        let fourth = Task { try await gate.enter("h:80") }  // second in line: 8 s, within its 10
        await clock.sleepers(atLeast: 2)
        await #expect(throws: HostDownloadGate.tooSlow) { try await gate.enter("h:80") }  // third: 12 s
        clock.advance(by: .seconds(4))
        gate.leave(second)
        gate.leave(try await waiters[1].value)
        gate.leave(try await fourth.value)
        #expect(gate.load(of: "h:80") == (0, 0))
    }

    /// A cancelled waiter (its request answered or gone) leaves the queue at once.
    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let clock = TestClock()
        let gate = HostDownloadGate(maxRunning: 1, maxWaiting: 5, maxWait: .seconds(10), clock: DeadlineClock(clock))
        let running = try await gate.enter("h:80")
        let waiter = Task { () async throws(ServeError) -> HostDownloadGate.Permit in try await gate.enter("h:80") }
        await clock.sleepers(atLeast: 1)
        waiter.cancel()
        await #expect(throws: HostDownloadGate.cancelled) { try await waiter.value }
        #expect(gate.load(of: "h:80") == (1, 0))
        gate.leave(running)
        #expect(gate.load(of: "h:80") == (0, 0))
    }

    @Test func aHostIsItsNameAndPort() {
        #expect(HostDownloadGate.host(of: URL(string: "https://Images.Example.com/a.jpg")!) == "images.example.com:443")
        #expect(HostDownloadGate.host(of: URL(string: "http://127.0.0.1:8081/a.jpg")!) == "127.0.0.1:8081")
        #expect(HostDownloadGate.host(of: URL(string: "http://a.test/a.jpg")!) == "a.test:80")
    }
}
