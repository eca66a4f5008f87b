import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// One of the stress run's sources: a real JPEG or PNG over HTTP or from a `.data` closure, a
/// 404, or a JPEG cut short.
private struct StressSource: Sendable {
    enum Kind: Sendable { case good, missing, cut }
    let index: Int
    let kind: Kind
    let size: PixelSize
    let request: @Sendable (CGSize?, ImageRequest.Priority) -> ImageRequest
    let url: URL?
    /// What the server sends for it (nil for a `.data` source).
    let served: Data?
}

/// What one request of the stress run got.
private enum StressOutcome: Sendable {
    case image(PixelSize)
    case failure(any Error)
}

/// One request of the stress run, decided up front by the seeded generator.
private struct StressPlan: Sendable {
    enum Cancel: Sendable { case never, atOnce, after(microseconds: Int) }
    let source: Int
    let usesTask: Bool
    let targeted: Bool
    let priority: ImageRequest.Priority
    let cancel: Cancel
    var cancels: Bool { if case .never = cancel { false } else { true } }
}

/// Weak references to a sample of the tasks, to see them go.
private final class WeakTasks: Sendable {
    private final class Box: @unchecked Sendable { weak var task: ImageTask? }
    private let boxes = LockedState<[Box]>([])
    func add(_ task: ImageTask) {
        let box = Box()
        box.task = task
        boxes.withLock { $0.append(box) }
    }
    var count: Int { boxes.withLock { $0.count } }
    var alive: Int { boxes.withLock { $0.filter { $0.task != nil }.count } }
}

@Suite("Failure modes: stress")
struct FailureModeStressTests {
    @Test(
        "10,000 requests with seeded random cancellation under a small memory cache: every one answered, nothing left",
        .timeLimit(.minutes(10)))
    func tenThousandRequestsWithRandomCancellation() async throws {
        let requestCount = 10_000
        let sourceCount = 400
        let window = 48
        let target = CGSize(width: 8, height: 8)
        var random = SplitMix(seed: 0x1215_2026)

        try await withTestServer { server in
            // Sources: every 20th a 404, every 20th (offset 10) a JPEG cut in half, the rest real
            // images of distinct sizes, half over HTTP and half from `.data` closures.
            var sources: [StressSource] = []
            for index in 0..<sourceCount {
                let size = PixelSize(width: 16 + index % 23, height: 12 + index % 13)
                let bitmap = SampleImages.photo(width: size.width, height: size.height, seed: UInt64(index))
                let isJPEG = index % 4 < 2
                let data = try isJPEG ? TestImages.jpeg(bitmap, quality: 80) : TestImages.png(bitmap)
                let kind: StressSource.Kind = index % 20 == 0 ? .missing : index % 20 == 10 ? .cut : .good
                let path = "/stress/\(index).\(isJPEG ? "jpg" : "png")"
                var served: Data?
                switch kind {
                case .missing:
                    server.serve(path, .error(404))
                case .cut:
                    let jpeg = try TestImages.jpeg(bitmap, quality: 80)
                    served = jpeg.prefix(jpeg.count / 2)
                    server.serve(path, data: served!, contentType: "image/jpeg")
                case .good:
                    served = data
                    server.serve(path, data: data, contentType: isJPEG ? "image/jpeg" : "image/png")
                }
                if kind == .good, index % 2 == 1 {
                    sources.append(
                        StressSource(
                            index: index, kind: kind, size: size,
                            request: { targetSize, priority in
                                ImageRequest(
                                    source: .data(id: "stress-\(index)") {
                                        try await Task.sleep(for: .microseconds(200))
                                        return data
                                    }, targetSize: targetSize, priority: priority)
                            }, url: nil, served: nil))
                } else {
                    let url = server.url(path)
                    sources.append(
                        StressSource(
                            index: index, kind: kind, size: size,
                            request: { targetSize, priority in
                                ImageRequest(url: url, targetSize: targetSize, priority: priority)
                            }, url: url, served: served))
                }
            }

            let plans = (0..<requestCount).map { _ -> StressPlan in
                let roll = Int.random(in: 0..<100, using: &random)
                let cancel: StressPlan.Cancel =
                    roll < 60
                    ? .never
                    : roll < 70
                        ? .atOnce
                        : .after(microseconds: Int.random(in: 0..<4000, using: &random))
                return StressPlan(
                    source: Int.random(in: 0..<sourceCount, using: &random), usesTask: Bool.random(using: &random),
                    targeted: Int.random(in: 0..<10, using: &random) < 3,
                    priority: ImageRequest.Priority.allCases.randomElement(using: &random)!, cancel: cancel)
            }

            let memory = MemoryCache(costLimit: 64 * 1024)
            let directory = failureModeDirectory("stress-cache")
            defer { try? FileManager.default.removeItem(at: directory) }
            let disk = try DataCache(directory: directory, sizeLimit: 128 * 1024)
            let pipeline = ImagePipeline(
                configuration: .init(
                    dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: disk,
                    memoryCache: memory))
            let weakTasks = WeakTasks()
            let started = ContinuousClock.now
            var outcomes = [StressOutcome?](repeating: nil, count: requestCount)

            await withTaskGroup(of: (Int, StressOutcome).self) { group in
                var next = 0
                func add(_ number: Int) {
                    let plan = plans[number]
                    let request = sources[plan.source].request(plan.targeted ? target : nil, plan.priority)
                    if plan.usesTask {
                        let task = pipeline.task(for: request)
                        if number % 50 == 0 { weakTasks.add(task) }
                        if case .atOnce = plan.cancel { task.cancel() }
                        group.addTask {
                            if case .after(let delay) = plan.cancel {
                                try? await Task.sleep(for: .microseconds(delay))
                                task.cancel()
                            }
                            do throws(ImageError) {
                                return (number, .image(try await task.image.bitmap.size))
                            } catch {
                                return (number, .failure(error))
                            }
                        }
                    } else {
                        group.addTask {
                            let load = Task { try await pipeline.image(for: request).bitmap.size }
                            switch plan.cancel {
                            case .never: break
                            case .atOnce: load.cancel()
                            case .after(let delay):
                                try? await Task.sleep(for: .microseconds(delay))
                                load.cancel()
                            }
                            switch await load.result {
                            case .success(let size): return (number, .image(size))
                            case .failure(let error): return (number, .failure(error))
                            }
                        }
                    }
                }
                while next < min(window, requestCount) {
                    add(next)
                    next += 1
                }
                for await (number, outcome) in group {
                    outcomes[number] = outcome
                    if next < requestCount {
                        add(next)
                        next += 1
                    }
                }
            }
            let elapsed = ContinuousClock.now - started

            // Every request answered: an image of the right source, or a typed error it could get.
            var images = 0, cancelled = 0, expectedErrors = 0
            var problems: [String] = []
            var loadedKeys = Set<String>()
            for (number, plan) in plans.enumerated() {
                let source = sources[plan.source]
                guard let outcome = outcomes[number] else {
                    problems.append("#\(number): no answer")
                    continue
                }
                switch outcome {
                case .image(let size):
                    images += 1
                    loadedKeys.insert("\(plan.source)-\(plan.targeted)")
                    let right =
                        source.kind == .good
                        && (plan.targeted ? size.width <= 8 && size.height <= 8 && size.width > 0 && size.height > 0 : size == source.size)
                    if !right { problems.append("#\(number): \(size) for source \(plan.source) (\(source.kind), \(source.size))") }
                case .failure(let error):
                    guard let error = error as? ImageError else {
                        problems.append("#\(number): untyped error \(error)")
                        continue
                    }
                    if error == .cancelled {
                        cancelled += 1
                        if !plan.cancels { problems.append("#\(number): cancelled though nobody cancelled it") }
                        continue
                    }
                    expectedErrors += 1
                    switch (source.kind, error) {
                    case (.missing, .httpStatus(404, source.url)): break
                    case (.cut, .truncated(.jpeg, _, _)), (.cut, .decodingFailed(.jpeg, _)): break
                    default: problems.append("#\(number): \(error) for source \(plan.source) (\(source.kind))")
                    }
                }
            }
            #expect(problems.isEmpty, "\(problems.count) wrong answers, first: \(problems.prefix(10).joined(separator: "; "))")
            let cancellingPlans = plans.filter(\.cancels).count
            #expect(images + expectedErrors >= requestCount - cancellingPlans)
            #expect(cancelled > 0 && cancelled <= cancellingPlans)

            // Nothing left: no waiting request or task, no stage, no queued or running job.
            let drained = await pipelineEventually { pipeline.inFlight.total == 0 }
            #expect(drained, "left in flight: \(pipeline.inFlight)")
            // Tasks are not kept alive by the pipeline once they ended.
            #expect(await pipelineEventually { weakTasks.alive == 0 }, "\(weakTasks.alive) of \(weakTasks.count) sampled tasks still alive")
            // The memory cache stayed within its limit, and had to evict to do so.
            #expect(memory.totalCost <= memory.costLimit)
            #expect(memory.count < loadedKeys.count, "\(memory.count) images kept of \(loadedKeys.count) loaded")
            // The disk cache too; and what it holds is exactly what the server sent.
            await disk.waitForPendingWrites()
            #expect(disk.totalSize <= disk.sizeLimit)
            #expect(disk.totalSize == failureModeEntryBytes(in: directory))
            var onDisk = 0
            for source in sources where source.url != nil {
                guard let data = disk.data(for: pipeline.dataKey(for: source.request(nil, .normal))) else { continue }
                onDisk += 1
                #expect(source.kind != .missing, "source \(source.index) (missing): \(data.count) bytes on disk")
                expectSameBytes(data, source.served ?? Data(), "source \(source.index) (\(source.kind)) on disk")
            }
            #expect(onDisk > 0 && onDisk < sources.filter { $0.url != nil }.count, "\(onDisk) entries on disk")
            print(
                "stress: \(requestCount) requests in \(elapsed): \(images) images, \(expectedErrors) expected errors, "
                    + "\(cancelled) cancelled (of \(cancellingPlans) cancelling); \(server.totalRequestCount) HTTP requests, "
                    + "\(server.cancelledRequestCount) abandoned; memory cache \(memory.count) images, \(memory.totalCost) bytes; "
                    + "disk cache \(disk.count) entries, \(disk.totalSize) bytes")
        }
    }
}
