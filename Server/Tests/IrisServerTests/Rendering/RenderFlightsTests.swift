import IrisServerCore
import Synchronization
import Testing

@testable import IrisServer

/// Requests for a result being rendered join that render (``RenderFlights``).
@Suite struct RenderFlightsTests {
    /// Waits until `count` requests wait for `key`'s render (a hang detector bounds the test run).
    func untilWaiting<Value>(_ count: Int, for key: String, in flights: RenderFlights<Value>) async {
        while flights.waiting(for: key) < count { await Task.yield() }
    }

    @Test("a request for a result in flight joins its render; a later one renders anew")
    func joinsTheRenderInFlight() async throws {
        let flights = RenderFlights<Int>()
        let renders = Mutex(0)
        let latch = Latch()
        let render: @Sendable () async throws(ServeError) -> Int = {
            let number = renders.withLock { count in
                count += 1
                return count
            }
            await latch.wait()
            return number
        }
        let first = Task { try await flights.render("a", render) }
        await untilWaiting(1, for: "a", in: flights)
        let second = Task { try await flights.render("a", render) }
        await untilWaiting(2, for: "a", in: flights)
        let other = Task { try await flights.render("b", render) }
        await untilWaiting(1, for: "b", in: flights)
        latch.open()
        let results = [try await first.value, try await second.value]
        #expect(results[0] == results[1])
        #expect(try await other.value != results[0])
        #expect(renders.withLock { $0 } == 2)
        #expect(flights.count == 0)

        #expect(try await flights.render("a", render) == 3)
    }

    @Test("a request that joins a render takes no render slot: another source renders beside it")
    func joiningTakesNoSlot() async throws {
        let flights = RenderFlights<String>()
        let gate = AdmissionGate(maxRunning: 2, maxWaiting: 8)
        let latch = Latch()
        let held: @Sendable () async throws(ServeError) -> String = {
            await latch.wait()
            return "a"
        }
        let first = Task { try await flights.render("a", inSlotOf: gate, source: "a", bytes: 10, held) }
        await untilWaiting(1, for: "a", in: flights)
        while gate.load.running < 1 { await Task.yield() }
        let joining = Task { try await flights.render("a", inSlotOf: gate, source: "a", bytes: 10, held) }
        await untilWaiting(2, for: "a", in: flights)
        let joinerHoldsNoSlot = gate.load.running == 1
        #expect(joinerHoldsNoSlot, "the joining request took a render slot")
        // The second slot is free for another result while "a" is still rendering (asked only
        // when it is free, so a failure above ends the test instead of hanging it).
        if joinerHoldsNoSlot {
            let other = try await flights.render("b", inSlotOf: gate, source: "b", bytes: 10) { () async throws(ServeError) in "b" }
            #expect(other == "b")
        }
        latch.open()
        #expect(try await first.value == "a")
        #expect(try await joining.value == "a")
        #expect(gate.load.running == 0)
    }

    @Test("a cancelled request leaves the render to the others; the last one cancels it")
    func cancellingLeaves() async throws {
        let flights = RenderFlights<Bool>()
        // Ends when `latch` opens or the render is cancelled; tells which.
        func render(until latch: Latch) -> @Sendable () async throws(ServeError) -> Bool {
            {
                await withTaskCancellationHandler {
                    await latch.wait()
                } onCancel: {
                    latch.open()
                }
                return Task.isCancelled
            }
        }
        let latch = Latch()
        let leaving = Task { try await flights.render("a", render(until: latch)) }
        await untilWaiting(1, for: "a", in: flights)
        let staying = Task { try await flights.render("a", render(until: latch)) }
        await untilWaiting(2, for: "a", in: flights)
        leaving.cancel()
        while flights.waiting(for: "a") > 1 { await Task.yield() }

        let alone = Task { try await flights.render("b", render(until: Latch())) }
        await untilWaiting(1, for: "b", in: flights)
        alone.cancel()
        #expect(try await alone.value == true, "the render nobody waits for any more is cancelled")

        latch.open()
        #expect(try await staying.value == false, "the render goes on for the request still waiting")
        #expect(try await leaving.value == false, "the request that left still gets the result")
        #expect(flights.count == 0)
    }
}
