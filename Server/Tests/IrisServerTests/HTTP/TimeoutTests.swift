@testable import IrisServer
import IrisServerCore
import Testing

/// The processing timeout: work that does not finish is cut off with a 504 and cancelled (it
/// sleeps ten minutes, a hang detector, so the outcome does not depend on the machine's speed);
/// work that finishes returns its value.
@Suite struct TimeoutTests {
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
}
