// What `ImageModel` costs the main actor, measured as the main thread's CPU time (the main actor
// runs on the main thread), next to the least a hand-written view model could do:
//   1. memory-cache hits: `ImageModel.load` vs `pipeline.cachedImage(for:)` (µs of main-thread
//      CPU per load; the phase is set before `load` returns);
//   2. 1,000 distinct images decoded at a thumbnail target: `ImageModel.load` and its phase
//      updates vs `Task { @MainActor in phase = try await pipeline.image(for:) }` (µs of
//      main-thread CPU per image; decoding itself runs off the main actor in both).
// Run: `swift run --traits DevelopmentTools -c release ModelBench` (or scripts/bench-model).
import Foundation
import Iris
import IrisSamples

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time `thread` has used, in seconds.
func cpuSeconds(of thread: pthread_t) -> Double {
    var clock = clockid_t()
    pthread_getcpuclockid(thread, &clock)
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Every thread seen running main-actor code during a measurement: on Linux one thread drains
/// the main queue once `main` has first suspended; the measurement is only valid if it stays one.
@MainActor enum MainActorThreads {
    static var seen: [pthread_t] = []
}

@MainActor func noteMainActorThread() {
    let thread = pthread_self()
    if !MainActorThreads.seen.contains(where: { pthread_equal($0, thread) != 0 }) { MainActorThreads.seen.append(thread) }
}

/// CPU µs per item that `body` costs the thread running the main actor, best of `runs`.
@MainActor
func mainThreadMicroseconds(per count: Int, runs: Int = 3, _ body: (Int) async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for run in 0..<runs {
        await Task.yield()
        MainActorThreads.seen = []
        noteMainActorThread()
        let thread = pthread_self()
        let start = cpuSeconds(of: thread)
        try await body(run)
        noteMainActorThread()
        let used = cpuSeconds(of: thread) - start
        precondition(MainActorThreads.seen.count == 1, "the main actor ran on \(MainActorThreads.seen.count) threads")
        best = min(best, used * 1e6 / Double(count))
    }
    return best
}

/// Waits, sleeping between looks, until `done` holds (a look costs the main thread ~1 µs).
@MainActor
func waitUntil(_ done: () -> Bool) async {
    while !done() {
        try? await Task.sleep(for: .milliseconds(20))
        noteMainActorThread()
    }
}

func row(_ name: String, model: Double, direct: Double) {
    let padded = name.padding(toLength: 52, withPad: " ", startingAt: 0)
    print(padded + String(format: "%10.2f %10.2f   µs main-thread CPU, model/direct %.2f", model, direct, model / direct))
}

@MainActor
func run() async throws {
    let count = 1_000
    let jpeg = ImageEncoders.encoder(for: .jpeg)!
    let photos = try (0..<count).map { index in
        try jpeg.encode(SampleImages.photo(width: 256, height: 192, seed: UInt64(index + 1)),
                        options: EncodeOptions(quality: 85))
    }
    let target = CGSize(width: 64, height: 64)
    func request(_ index: Int, run: Int) -> ImageRequest {
        let data = photos[index]
        return ImageRequest(source: .data(id: "\(run)-\(index)") { data }, targetSize: target, scale: 2)
    }
    print("ImageModel on the main actor; \(count) images per run, best of 3, release build")
    print("".padding(toLength: 52, withPad: " ", startingAt: 0) + "     model     direct")

    // 1. Memory hits.
    let warm = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
    for index in 0..<count { _ = try await warm.image(for: request(index, run: 0)) }
    let models = (0..<count).map { _ in ImageModel(pipeline: warm) }
    let hitModel = await mainThreadMicroseconds(per: count) { _ in
        for index in 0..<count {
            models[index].reset()
            models[index].load(request(index, run: 0))
            guard case .success = models[index].phase else { fatalError("not a memory hit") }
        }
    }
    var shown: [LoadedImage?] = Array(repeating: nil, count: count)
    let hitDirect = await mainThreadMicroseconds(per: count) { _ in
        for index in 0..<count { shown[index] = warm.cachedImage(for: request(index, run: 0)) }
    }
    row("memory hit: ImageModel.load vs cachedImage(for:)", model: hitModel, direct: hitDirect)

    // 2. Loads that decode (off the main actor), each image new to the pipeline.
    let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
    let loadModel = await mainThreadMicroseconds(per: count) { run in
        let models = (0..<count).map { _ in ImageModel(pipeline: pipeline) }
        for index in 0..<count { models[index].load(request(index, run: run + 10)) }
        await waitUntil { models.allSatisfy { $0.phase.kind == .success } }
    }
    let loadDirect = await mainThreadMicroseconds(per: count) { run in
        var phases: [LoadedImage?] = Array(repeating: nil, count: count)
        var finished = 0
        for index in 0..<count {
            let request = request(index, run: run + 20)
            Task { @MainActor in
                phases[index] = try? await pipeline.image(for: request)
                finished += 1
            }
        }
        await waitUntil { finished == count }
        precondition(phases.allSatisfy { $0 != nil })
    }
    row("decoded load: ImageModel.load vs Task + image(for:)", model: loadModel, direct: loadDirect)
}

try await run()
