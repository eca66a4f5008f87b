import Foundation
import Testing
@testable import Iris
import IrisTestSupport

extension PipelineTests {
    @Suite("Scheduling")
    struct Scheduling {
        static func url(_ name: String) -> URL { URL(string: "https://example.com/\(name).gif")! }

        @Test("with one download slot, a later .veryHigh request runs before earlier .low ones")
        func higherPriorityFirst() async throws {
            let loader = PipelineCountingLoader(held: true)
            let pipeline = ImagePipeline.testPipeline(loader: loader, maxConcurrentDownloads: 1)
            var tasks = [pipeline.task(for: ImageRequest(url: Self.url("first"), priority: .low))]
            #expect(await pipelineEventually { loader.loadCount == 1 })
            for name in ["low-1", "low-2", "low-3"] {
                tasks.append(pipeline.task(for: ImageRequest(url: Self.url(name), priority: .low)))
            }
            tasks.append(pipeline.task(for: ImageRequest(url: Self.url("urgent"), priority: .veryHigh)))
            tasks.append(pipeline.task(for: ImageRequest(url: Self.url("normal"), priority: .normal)))
            #expect(pipeline.graph.loadQueue.queuedCount == 5)
            loader.release()
            for task in tasks { _ = try await task.image }
            #expect(
                loader.startedURLs.map(\.lastPathComponent)
                    == ["first", "urgent", "normal", "low-1", "low-2", "low-3"].map { $0 + ".gif" })
        }

        @Test("raising a queued request's priority moves it forward")
        func raisingPriorityReorders() async throws {
            let loader = PipelineCountingLoader(held: true)
            let pipeline = ImagePipeline.testPipeline(loader: loader, maxConcurrentDownloads: 1)
            let names = ["first", "a", "b", "c", "d"]
            let tasks = names.map { pipeline.task(for: ImageRequest(url: Self.url($0), priority: .low)) }
            #expect(await pipelineEventually { loader.loadCount == 1 })
            tasks[3].priority = .high
            #expect(tasks[3].priority == .high)
            loader.release()
            for task in tasks { _ = try await task.image }
            #expect(loader.startedURLs.map(\.lastPathComponent) == ["first", "c", "a", "b", "d"].map { $0 + ".gif" })
        }

        @Test("shared work runs at the highest priority of its subscribers, and drops back when it leaves")
        func sharedPriorityIsTheMaximum() async throws {
            let loader = PipelineCountingLoader(held: true)
            let pipeline = ImagePipeline.testPipeline(loader: loader, maxConcurrentDownloads: 1)
            let blocker = pipeline.task(for: ImageRequest(url: Self.url("blocker")))
            #expect(await pipelineEventually { loader.loadCount == 1 })
            let normal = pipeline.task(for: ImageRequest(url: Self.url("normal"), priority: .normal))
            let sharedLow = pipeline.task(for: ImageRequest(url: Self.url("shared"), priority: .low))
            // A second subscriber at .veryHigh lifts the shared load above "normal"…
            let sharedHigh = pipeline.task(for: ImageRequest(url: Self.url("shared"), priority: .veryHigh))
            // …and a third request, queued later, at .high: the shared one still comes first.
            let high = pipeline.task(for: ImageRequest(url: Self.url("high"), priority: .high))
            loader.release()
            for task in [blocker, normal, sharedLow, sharedHigh, high] { _ = try await task.image }
            #expect(loader.startedURLs.map(\.lastPathComponent) == ["blocker", "shared", "high", "normal"].map { $0 + ".gif" })

            // When the .veryHigh subscriber cancels, the shared work falls back to .low.
            let loader2 = PipelineCountingLoader(held: true)
            let pipeline2 = ImagePipeline.testPipeline(loader: loader2, maxConcurrentDownloads: 1)
            let blocker2 = pipeline2.task(for: ImageRequest(url: Self.url("blocker")))
            #expect(await pipelineEventually { loader2.loadCount == 1 })
            let low = pipeline2.task(for: ImageRequest(url: Self.url("shared"), priority: .low))
            let urgent = pipeline2.task(for: ImageRequest(url: Self.url("shared"), priority: .veryHigh))
            let normal2 = pipeline2.task(for: ImageRequest(url: Self.url("normal"), priority: .normal))
            urgent.cancel()
            loader2.release()
            for task in [blocker2, low, normal2] { _ = try await task.image }
            #expect(loader2.startedURLs.map(\.lastPathComponent) == ["blocker", "normal", "shared"].map { $0 + ".gif" })
        }

        @Test("a cancelled queued job leaves the queue at once; a cancelled running job frees its slot")
        func cancellationFreesTheQueue() async throws {
            let loader = PipelineCountingLoader(held: true)
            let pipeline = ImagePipeline.testPipeline(loader: loader, maxConcurrentDownloads: 1)
            let running = pipeline.task(for: ImageRequest(url: Self.url("running")))
            #expect(await pipelineEventually { loader.loadCount == 1 })
            let queued = pipeline.task(for: ImageRequest(url: Self.url("queued")))
            let next = pipeline.task(for: ImageRequest(url: Self.url("next")))
            #expect(pipeline.graph.loadQueue.queuedCount == 2)
            queued.cancel()
            #expect(pipeline.graph.loadQueue.queuedCount == 1)
            running.cancel()
            // The slot is free at once, so "next" starts while the loader is still held.
            #expect(await pipelineEventually { loader.startedURLs.last?.lastPathComponent == "next.gif" })
            #expect(pipeline.graph.loadQueue.queuedCount == 0)
            loader.release()
            _ = try await next.image
            #expect(loader.startedURLs.map(\.lastPathComponent) == ["running.gif", "next.gif"])
            #expect(await pipelineEventually { loader.cancelledCount == 1 })
        }

        @Test("the work queue: highest priority first, FIFO within a priority")
        func workQueueOrder() async throws {
            let queue = WorkQueue(maxConcurrent: 1)
            let gate = PipelineGate()
            let order = PipelineOrder()
            queue.enqueue(priority: .normal) { await gate.wait() }
            let priorities: [ImageRequest.Priority] = [.low, .high, .low, .veryHigh, .high, .veryLow, .normal]
            var handles: [WorkQueue.Handle] = []
            for (index, priority) in priorities.enumerated() {
                handles.append(queue.enqueue(priority: priority) { order.append("\(priority)\(index)") })
            }
            handles[5].setPriority(.high)  // veryLow5 → high, after high1 and high4 (FIFO by arrival)
            handles[6].cancel()  // normal6 never runs
            #expect(queue.runningCount == 1)
            #expect(queue.queuedCount == 6)
            gate.open()
            #expect(await pipelineEventually { queue.runningCount == 0 && queue.queuedCount == 0 })
            #expect(order.items == ["veryHigh3", "high1", "high4", "veryLow5", "low0", "low2"])
        }

        @Test("the work queue never runs more jobs than its limit")
        func workQueueBound() async throws {
            let queue = WorkQueue(maxConcurrent: 2)
            let current = PipelinePeak()
            let peak = PipelinePeak()
            let gate = PipelineGate()
            for _ in 0..<20 {
                queue.enqueue(priority: .normal) {
                    peak.record(current.add(1))
                    await gate.wait()
                    _ = current.add(-1)
                }
            }
            // Two jobs run and hold; the other 18 wait their turn, however long.
            #expect(await pipelineEventually { current.value == 2 })
            #expect(queue.runningCount == 2 && queue.queuedCount == 18)
            gate.open()
            #expect(await pipelineEventually { queue.runningCount == 0 && queue.queuedCount == 0 })
            #expect(peak.value == 2)
        }
    }
}

/// Records strings in order.
final class PipelineOrder: Sendable {
    private let storage = LockedState<[String]>([])
    var items: [String] { storage.withLock { $0 } }
    func append(_ item: String) { storage.withLock { $0.append(item) } }
}

/// An integer shared between tasks: `record` keeps the highest value seen, `add` adds.
final class PipelinePeak: Sendable {
    private let storage = LockedState(0)
    var value: Int { storage.withLock { $0 } }
    func record(_ value: Int) { storage.withLock { $0 = max($0, value) } }
    /// Adds `delta` and returns the new value.
    func add(_ delta: Int) -> Int {
        storage.withLock {
            $0 += delta
            return $0
        }
    }
}
