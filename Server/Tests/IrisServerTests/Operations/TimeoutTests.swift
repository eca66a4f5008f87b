@testable import IrisServer
import IrisServerCore
import Testing

/// The processing timeout: work that does not finish is cut off with a 504 and cancelled (it
/// sleeps ten minutes, a hang detector, so the outcome does not depend on the machine's speed);
/// work that finishes returns its value; work that cannot stop (an encode already running) does
/// not hold the 504 back, and the caller learns when it has really ended.
@Suite(.timeLimit(.minutes(2))) struct TimeoutTests {
    @Test func workThatNeverEndsIsA504() async throws {
        await #expect(throws: ServeError(status: 504, "the image took too long to make")) {
            try await withTimeout(.milliseconds(50)) { () async throws -> Int in
                try await Task.sleep(for: .seconds(600))
                return 1
            }
        }
    }

    @Test func finishedWorkReturnsItsValue() async throws {
        #expect(try await withTimeout(.seconds(600)) { 7 } == 7)
    }

    /// The work ignores cancellation and ends only when the test opens its latch, after the
    /// 504 was received: a timeout that waited for it would hang here (the suite's time
    /// limit detects that).
    @Test func workThatCannotStopDoesNotHoldTheAnswer() async throws {
        let running = Latch()
        let ended = Latch()
        await #expect(throws: ServeError(status: 504, "the image took too long to make")) {
            try await withTimeout(.milliseconds(50), whenWorkEnds: { ended.open() }) { () async -> Int in
                await running.wait()
                return 1
            }
        }
        running.open()
        await ended.wait()
    }
}
