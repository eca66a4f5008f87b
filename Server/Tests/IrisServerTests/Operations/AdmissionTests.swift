@testable import IrisServer
import IrisServerCore
import Testing

/// The admission the admission middleware hands the handler: its work answers 504 at the
/// processing timeout, but the admission is given back only when the work really ends; an
/// admission no work ran is given back when the handler returns; each is given back once.
/// The work waits on a latch the test opens, so no outcome depends on the machine's speed.
@Suite(.timeLimit(.minutes(2))) struct AdmissionTests {
    @Test func theAdmissionIsHeldPastThe504UntilTheWorkEnds() async throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 0)
        try gate.admit()
        let admission = Admission(gate: gate, limit: .milliseconds(50))
        let running = Latch()
        await #expect(throws: ServeError(status: 504, "the image took too long to make")) {
            try await admission.run { () async -> Int in
                await running.wait()  // ignores cancellation, as an encode does
                return 1
            }
        }
        admission.handlerReturned()
        // Answered, but the work still holds the only admission: the next request is refused.
        #expect(gate.load.waiting == 1)
        #expect(throws: ServeError(status: 429, "the service is busy, retry later")) { try gate.admit() }
        running.open()
        var spins = 0
        while gate.load.waiting > 0 {
            spins += 1
            try #require(spins < 10_000_000, "the admission was not given back when the work ended")
            await Task.yield()
        }
        try gate.admit()
        gate.dismiss()
        #expect(gate.load.waiting == 0)
    }

    @Test func anAdmissionNoWorkRanGoesBackWhenTheHandlerReturns() throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 0)
        try gate.admit()
        let admission = Admission(gate: gate, limit: .seconds(600))
        admission.handlerReturned()
        admission.handlerReturned()
        #expect(gate.load.waiting == 0 && gate.load.running == 0)
    }

    @Test func anAdmissionRunsOneWorkAndGoesBackOnce() async throws {
        let gate = AdmissionGate(maxRunning: 1, maxWaiting: 0)
        try gate.admit()
        let admission = Admission(gate: gate, limit: .seconds(600))
        #expect(try await admission.run { 7 } == 7)
        #expect(gate.load.waiting == 0)
        await #expect(throws: ServeError(status: 500, "an admission runs one work")) { try await admission.run { 8 } }
        admission.handlerReturned()
        #expect(gate.load.waiting == 0 && gate.load.running == 0)
    }
}
