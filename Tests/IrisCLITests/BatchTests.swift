import Foundation
@testable import IrisCLI
import Synchronization
import Testing
import IrisTestSupport

/// How `iris thumbnail` and `iris sheet` walk their inputs (``Batch``).
@Suite("CLI batch")
struct BatchTests {
    @Test("one input more than --jobs is in flight (the next waits for the decode slot), never two more")
    func oneInputBeyondTheJobs() async {
        let inputs = (0..<5).map { "input\($0)" }
        let gates = inputs.map { _ in PipelineGate() }
        let started = Mutex<[Int]>([])
        let running = Mutex((now: 0, most: 0))
        let batch = Batch(inputs: inputs, jobs: 1, report: BatchReport(total: inputs.count, noun: "tests", showsBar: false))
        let results = Task {
            await batch.run { index, path in
                started.withLock { $0.append(index) }
                running.withLock { running in
                    running.now += 1
                    running.most = max(running.most, running.now)
                }
                await gates[index].wait()
                running.withLock { $0.now -= 1 }
                return (index, written: path)
            }
        }
        // Two start at once; the third only when one of them ends.
        #expect(await pipelineEventually { started.withLock { $0.count } == 2 })
        #expect(started.withLock { $0.sorted() } == [0, 1])
        gates[1].open()
        #expect(await pipelineEventually { started.withLock { $0.count } == 3 })
        #expect(started.withLock { $0.last } == 2)
        for gate in gates { gate.open() }
        #expect(await results.value == [0, 1, 2, 3, 4])
        #expect(running.withLock { $0.most } == 2)
    }
}
