// What `ImageModel` costs the main actor, measured as the main thread's CPU time (the main actor
// runs on the main thread), next to the least a hand-written view model could do:
//   1. memory-cache hits: `ImageModel.load` vs `pipeline.cache.image(for:)` (µs of main-thread
//      CPU per load; the phase is set before `load` returns);
//   2. 1,000 distinct images decoded at a thumbnail target: `ImageModel.load` and its phase
//      updates vs `Task { @MainActor in phase = try await pipeline.image(for:) }` (µs of
//      main-thread CPU per image; decoding itself runs off the main actor in both);
//   3. render rate: how often a SwiftUI-like observer of a loading model (what a cell's body
//      reads) is told to render while a 528 KB image trickles in 4 KiB pieces from a loopback
//      server, with progress paced (`progressInterval`, the default) and with every chunk shown
//      (`.zero`, what a cell saw before pacing). `--render-rate` runs this part alone.
// Run: `swift run -c release --package-path Benchmarks ModelBench` (or Benchmarks/runners/model).
import Foundation
import Iris
import IrisUI
import IrisSamples
import IrisTestSupport
import Observation
import Synchronization

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
        try jpeg.encode(
            SampleImages.photo(width: 256, height: 192, seed: UInt64(index + 1)),
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
        for index in 0..<count { shown[index] = warm.cache.image(for: request(index, run: 0)) }
    }
    row("memory hit: ImageModel.load vs cache.image(for:)", model: hitModel, direct: hitDirect)
    // A reused cell: the model shows one image and is given another, also in memory (no reset).
    let swapModel = await mainThreadMicroseconds(per: count) { run in
        for index in 0..<count {
            let next = run % 2 == 0 ? (index + 1) % count : index
            models[index].load(request(next, run: 0))
            guard case .success = models[index].phase else { fatalError("not a memory hit") }
        }
    }
    row("memory hit, another image (a reused cell)", model: swapModel, direct: hitDirect)

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

    // 3. An animation playing, paused and finished: main-thread CPU and the player's wake-ups.
    try await measureAnimation()
}

/// A continuous clock that counts the sleeps asked of it: each is one wake-up of a player.
struct CountingClock: Clock {
    typealias Instant = ContinuousClock.Instant
    let sleeps = SleepCounter()
    var now: Instant { ContinuousClock.now }
    var minimumResolution: Duration { ContinuousClock().minimumResolution }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        sleeps.add()
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}

final class SleepCounter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
}

@MainActor
func measureAnimation() async throws {
    let frameCount = 100
    let frames = (0..<frameCount).map { index in SampleImages.photo(width: 200, height: 200, seed: UInt64(index + 1)) }
    let clock = CountingClock()
    let thread = pthread_self()
    func spend(_ seconds: Double) async throws -> (cpu: Double, sleeps: Int) {
        let cpu = cpuSeconds(of: thread)
        let sleeps = clock.sleeps.count
        try await Task.sleep(for: .seconds(seconds))
        return (cpuSeconds(of: thread) - cpu, clock.sleeps.count - sleeps)
    }

    let looping = AnimationPlayer(
        animation: Animation(frames: frames, durations: Array(repeating: 0.02, count: frameCount)),
        firstFrame: frames[0], clock: clock)
    looping.play()
    let playing = try await spend(2)
    print(
        String(
            format: "animation, 50 frames/s: %.1f µs main-thread CPU per frame shown (%d wake-ups in 2 s)",
            playing.cpu * 1e6 / Double(max(1, playing.sleeps)), playing.sleeps))
    looping.pause()
    let paused = try await spend(1)
    print(String(format: "animation, paused: %d wake-ups and %.0f µs main-thread CPU in 1 s", paused.sleeps, paused.cpu * 1e6))

    let once = AnimationPlayer(
        animation: Animation(
            frames: Array(frames.prefix(10)), durations: Array(repeating: 0.02, count: 10),
            loopCount: 1), firstFrame: frames[0], clock: clock)
    once.play()
    _ = try await spend(0.5)
    let finished = try await spend(1)
    print(
        String(
            format: "animation, finished (one loop played): %d wake-ups and %.0f µs main-thread CPU in 1 s (finished: %@)",
            finished.sleeps, finished.cpu * 1e6, once.hasFinished ? "yes" : "no"))
}

/// Counts the renders a SwiftUI-like observer of `model.displayedPhase` is asked for: it observes
/// again after each notification, on the main actor, as a view's next render does.
@MainActor
final class RenderCounter {
    private(set) var count = 0
    private let model: ImageModel

    init(_ model: ImageModel) {
        self.model = model
        observe()
    }

    private func observe() {
        withObservationTracking {
            _ = model.displayedPhase
        } onChange: {
            Task { @MainActor in
                self.count += 1
                self.observe()
            }
        }
    }
}

@MainActor
func measureRenderRate() async throws {
    // Noise compresses badly: a 760×560 PNG of it is about 528 KB.
    guard let encoder = ImageEncoders.standard.encoder(for: .png) else { return print("render rate: no PNG encoder") }
    let png = try encoder.encode(SampleImages.photo(width: 760, height: 560, seed: 5), options: EncodeOptions())
    let server = TestHTTPServer()
    server.serve(
        "/trickle.png",
        TestHTTPRoute(body: png, contentType: "image/png", chunkSize: 4_096, chunkPause: .milliseconds(5)))
    try await server.start()
    for (name, interval) in [("every chunk (before)", Duration.zero), ("paced, default interval", ImageModel().progressInterval)] {
        var rows: [String] = []
        for _ in 0..<3 {
            let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
            model.progressInterval = interval
            let counter = RenderCounter(model)
            let start = ContinuousClock.now
            model.load(ImageRequest(url: server.url("/trickle.png"), targetSize: CGSize(width: 100, height: 100), scale: 3))
            while !(model.phase.kind == .success || model.phase.kind == .failure) { try await Task.sleep(for: .milliseconds(2)) }
            let seconds =
                Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                + Double((ContinuousClock.now - start).components.seconds)
            try await Task.sleep(for: .milliseconds(20))  // the last notification's render
            rows.append(String(format: "%d renders in %.2f s (%.0f/s)", counter.count, seconds, Double(counter.count) / seconds))
        }
        print(
            "render rate, \(png.count / 1024) KB in \((png.count + 4_095) / 4_096) pieces of 4 KiB, \(name): \(rows.joined(separator: "; "))"
        )
    }
    try await server.shutdown()
}

if CommandLine.arguments.contains("--render-rate") {
    try await measureRenderRate()
} else {
    try await run()
    try await measureRenderRate()
}
