import Testing
@testable import Iris

/// The binary heap under ``WorkQueue``: highest priority first, first in first out within one.
@Suite("Priority heap")
struct PriorityHeapTests {
    /// A job as the work queue ranks it: priority, then arrival.
    private struct Job: Ranked, Equatable {
        let priority: Int
        let arrival: Int
        func outranks(_ other: Job) -> Bool {
            priority != other.priority ? priority > other.priority : arrival < other.arrival
        }
    }

    /// 2,000 jobs in five priorities, in an order drawn from a seeded generator.
    private static func shuffledJobs() -> [Job] {
        var generator = SplitMix(seed: 0x1D5)
        return (0..<2000).map { Job(priority: Int(generator.next() % 5), arrival: $0) }
    }

    private static func drain(_ heap: inout PriorityHeap<Job>) -> [Job] {
        var out: [Job] = []
        while let job = heap.popFirst() { out.append(job) }
        return out
    }

    private static func isInOrder(_ jobs: [Job]) -> Bool {
        zip(jobs, jobs.dropFirst()).allSatisfy { !$1.outranks($0) }
    }

    @Test("pops in priority order, arrivals in order within a priority")
    func popsInOrder() {
        var heap = PriorityHeap<Job>()
        for job in Self.shuffledJobs() { heap.insert(job) }
        #expect(heap.count == 2000)
        let popped = Self.drain(&heap)
        #expect(popped.count == 2000)
        #expect(Self.isInOrder(popped))
        #expect(popped.first?.priority == 4 && popped.last?.priority == 0)
        #expect(heap.isEmpty && heap.first == nil && heap.popFirst() == nil)
    }

    @Test("pops and inserts interleaved keep the order of what remains")
    func interleaved() {
        var heap = PriorityHeap<Job>()
        var popped: [Job] = []
        for (index, job) in Self.shuffledJobs().enumerated() {
            heap.insert(job)
            if index % 3 == 2, let first = heap.first {
                #expect(heap.popFirst() == first)
                popped.append(first)
            }
        }
        let rest = Self.drain(&heap)
        #expect(popped.count + rest.count == 2000)
        #expect(Self.isInOrder(rest))
    }

    @Test("retain(where:) removes what it is told to and keeps heap order")
    func retain() {
        var heap = PriorityHeap<Job>()
        for job in Self.shuffledJobs() { heap.insert(job) }
        heap.retain { $0.arrival % 4 != 0 }
        #expect(heap.count == 1500)
        let rest = Self.drain(&heap)
        #expect(rest.allSatisfy { $0.arrival % 4 != 0 })
        #expect(Self.isInOrder(rest))
    }
}

/// A small seeded generator (SplitMix64), so the test's order is the same on every run.
private struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
