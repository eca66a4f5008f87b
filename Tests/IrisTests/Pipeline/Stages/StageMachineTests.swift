import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// The stage machine on its own (StageMachine.swift), with fake stages whose work the test drives
/// by hand: no queue, no loader, no clock.
@Suite("Stage machine")
struct StageMachineTests {
    @Test("subscribers with one key share one stage; each gets the result; the next subscribe after it starts anew")
    func coalescing() {
        let rig = FakeStages()
        let first = rig.subscribe("a", .normal)
        let second = rig.subscribe("a", .normal)
        let other = rig.subscribe("b", .normal)
        #expect(rig.made == ["a", "b"])
        #expect(rig.registry.count == 2)
        rig.stage("a").finish(.success(7))
        #expect(first.results == [7] && second.results == [7])
        #expect(other.results.isEmpty)
        #expect(rig.registry.count == 1)
        _ = rig.subscribe("a", .normal)
        #expect(rig.made == ["a", "b", "a"])
        _ = other
    }

    @Test("the stage runs at its highest subscriber's priority, and follows it up and down")
    func highestPriority() {
        let rig = FakeStages()
        let low = rig.subscribe("a", .low)
        #expect(rig.stage("a").priority == .low)
        let high = rig.subscribe("a", .high)
        #expect(rig.stage("a").priority == .high)
        low.subscription.setPriority(.veryHigh)
        #expect(rig.stage("a").priority == .veryHigh)
        low.subscription.cancel()
        #expect(rig.stage("a").priority == .high)
        high.subscription.setPriority(.veryLow)
        #expect(rig.stage("a").priority == .veryLow)
    }

    @Test("the last subscriber leaving cancels the stage and the stage it follows; one leaving of two cancels nothing")
    func lastSubscriberCancels() {
        let upstream = FakeStages()
        let downstream = FakeStages(following: upstream)
        let first = downstream.subscribe("a", .normal)
        let second = downstream.subscribe("a", .normal)
        #expect(upstream.made == ["a"])
        first.subscription.cancel()
        #expect(!downstream.stage("a").isEnded && !upstream.stage("a").isEnded)
        second.subscription.cancel()
        #expect(downstream.stage("a").isEnded && upstream.stage("a").isEnded)
        #expect(downstream.registry.count == 0 && upstream.registry.count == 0)
        #expect(first.results.isEmpty && second.results.isEmpty)
    }

    @Test("a stage passes its priority to the stage it follows")
    func priorityFlowsUpstream() {
        let upstream = FakeStages()
        let downstream = FakeStages(following: upstream)
        let waiter = downstream.subscribe("a", .low)
        #expect(upstream.stage("a").priority == .low)
        waiter.subscription.setPriority(.high)
        #expect(upstream.stage("a").priority == .high)
    }

    @Test("follow forwards progress and failures from upstream; the stage's own work gets partials and the result")
    func followForwards() {
        let upstream = FakeStages()
        let downstream = FakeStages(following: upstream)
        let waiter = downstream.subscribe("a", .normal)
        upstream.stage("a").publish(ImageTask.Progress(completed: 3, total: 9))
        upstream.stage("a").publishPartial(4)
        #expect(waiter.progress == [3])
        #expect(downstream.stage("a").partials == [4])
        upstream.stage("a").finish(.failure(.notCached))
        #expect(waiter.failures == [.notCached])
        #expect(downstream.stage("a").isEnded)

        let second = downstream.subscribe("b", .normal)
        upstream.stage("b").finish(.success(20))
        #expect(second.results == [21])  // the fake's own work: add one
    }

    @Test("a subscriber joining late gets the latest progress at once, but not earlier partials")
    func lateJoinerGetsLastProgress() {
        let rig = FakeStages()
        let early = rig.subscribe("a", .normal)
        rig.stage("a").publish(ImageTask.Progress(completed: 1, total: 10))
        rig.stage("a").publishPartial(5)
        rig.stage("a").publish(ImageTask.Progress(completed: 4, total: 10))
        let late = rig.subscribe("a", .normal)
        #expect(early.progress == [1, 4])
        #expect(late.progress == [4])
        #expect(early.partials == [5] && late.partials.isEmpty)
    }

    @Test("reports after the end are ignored")
    func reportsAfterEndIgnored() {
        let rig = FakeStages()
        let waiter = rig.subscribe("a", .normal)
        rig.stage("a").finish(.success(1))
        rig.stage("a").finish(.success(2))
        rig.stage("a").publish(ImageTask.Progress(completed: 1, total: 1))
        #expect(waiter.results == [1])
        #expect(waiter.progress.isEmpty)
    }
}

// MARK: Fakes

/// A stage whose work the test does: it records partials from upstream and, when it follows
/// one, finishes with the upstream's result plus one.
private final class FakeStage: PipelineStage<Int, Int>, @unchecked Sendable {
    let key: String
    let upstream: FakeStages?
    private let received = LockedState<[Int]>([])

    init(graph: PipelineGraph, key: String, upstream: FakeStages?) {
        self.key = key
        self.upstream = upstream
        let request = ImageRequest(source: .data(id: key) { Data() })
        super.init(graph: graph, request: request, keys: graph.keys(for: request))
    }

    var partials: [Int] { received.withLock { $0 } }

    override func start() {
        guard let upstream else { return }
        follow(
            { [key] _, _, priority, observer in
                upstream.registry.subscribe(to: key, priority: priority, observer: observer) { upstream.make(key) }
            },
            partial: { [received] value in received.withLock { $0.append(value) } },
            success: { [self] value in finish(.success(value + 1)) })
    }
}

/// A registry of fake stages, remembering each stage it made.
private final class FakeStages: Sendable {
    let registry = StageRegistry<String, Int, Int>()
    private let graph = ImagePipeline(configuration: .init()).graph
    private let upstream: FakeStages?
    private let stages = LockedState<[(String, FakeStage)]>([])

    init(following upstream: FakeStages? = nil) { self.upstream = upstream }

    /// Keys of the stages made, in order.
    var made: [String] { stages.withLock { $0.map(\.0) } }

    /// The latest stage made for `key`.
    func stage(_ key: String) -> FakeStage { stages.withLock { $0.last { $0.0 == key }!.1 } }

    func make(_ key: String) -> FakeStage {
        let stage = FakeStage(graph: graph, key: key, upstream: upstream)
        stages.withLock { $0.append((key, stage)) }
        return stage
    }

    func subscribe(_ key: String, _ priority: ImageRequest.Priority) -> Waiter {
        let waiter = Waiter()
        waiter.subscription = registry.subscribe(to: key, priority: priority, observer: waiter.receive) { make(key) }
        return waiter
    }
}

/// One subscriber: what it received.
private final class Waiter: @unchecked Sendable {
    private let events = LockedState<[StageEvent<Int, Int>]>([])
    /// Set once, right after subscribing, on the test's thread.
    var subscription: StageSubscription<Int, Int>!

    @Sendable func receive(_ event: StageEvent<Int, Int>) { events.withLock { $0.append(event) } }

    var progress: [Int] {
        events.withLock { $0.compactMap { if case .progress(let progress) = $0 { progress.completed } else { nil } } }
    }
    var partials: [Int] {
        events.withLock { $0.compactMap { if case .partial(let value) = $0 { value } else { nil } } }
    }
    var results: [Int] {
        events.withLock { $0.compactMap { if case .finished(.success(let value)) = $0 { value } else { nil } } }
    }
    var failures: [ImageError] {
        events.withLock { $0.compactMap { if case .finished(.failure(let error)) = $0 { error } else { nil } } }
    }
}
