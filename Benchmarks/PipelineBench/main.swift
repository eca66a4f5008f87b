// The pipeline's own overhead, as ratios against the cache, decoder or loader called directly:
//   1. a memory-cache hit through `image(for:)` (µs per call);
//   2. 1,000 distinct images cached on disk, decoded at a thumbnail target (images/s), with the
//      default memory cache keeping the results and without one;
//   3. N distinct downloads from a loopback HTTP server (images/s).
// Run: `swift run -c release --package-path Benchmarks PipelineBench` (or Benchmarks/runners/pipeline); its grid-relaunch mode
// (HTTP caching) runs on its own, see below.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import IrisSamples
import IrisTestSupport

let cores = ProcessInfo.processInfo.activeProcessorCount
let target = CGSize(width: 128, height: 128)

/// Seconds `body` takes.
@MainActor
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Best of `runs` of each, taken in turns so that both see the same load on a shared machine.
@MainActor
func best(
    _ runs: Int, _ first: () async throws -> Double,
    _ second: () async throws -> Double
) async rethrows -> (Double, Double) {
    var results = (Double.infinity, Double.infinity)
    for _ in 0..<runs {
        results.0 = min(results.0, try await first())
        results.1 = min(results.1, try await second())
    }
    return results
}

/// Runs per measurement.
let runs = 5

/// Runs `body` for 0..<count with at most `width` at once.
func concurrently(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(width, count) {
            let i = next
            group.addTask { try await body(i) }
            next += 1
        }
        while try await group.next() != nil {
            if next < count {
                let i = next
                group.addTask { try await body(i) }
                next += 1
            }
        }
    }
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// One line of the table; the ratio is the pipeline's share of the direct speed (1 = no overhead).
func row(_ name: String, pipeline: Double, direct: Double, unit: String, higherIsBetter: Bool) {
    let ratio = higherIsBetter ? pipeline / direct : direct / pipeline
    print(
        padded(name, 46) + String(format: "%12.2f %12.2f  ", pipeline, direct) + padded(unit, 9)
            + String(format: "speed pipeline/direct %.2f", ratio))
}

func encodedPhoto(_ index: Int, side: Int = 256) throws -> Data {
    let photo = SampleImages.photo(width: side, height: side * 3 / 4, seed: UInt64(index + 1))
    return try ImageEncoders.encoder(for: .jpeg)!.encode(photo, options: EncodeOptions(quality: 85))
}

// MARK: 0. Grid relaunch (HTTP caching), on its own: `PipelineBench grid-relaunch BASE FOLDER MODE`
// loads BASE/0.jpg … BASE/99.jpg at once, as a grid of 100-point cells at 3×, through a pipeline
// over the disk cache in FOLDER (an app's launch: a new pipeline, an empty memory cache), and
// prints the seconds to the last cell. MODE `launch` and `relaunch` use the default cache policy;
// `redownload` skips the cache. Benchmarks/runners/pipeline --grid-relaunch counts the origin's side
// (requests, 304s, body bytes) from nginx's log. Uses only API older builds have too.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "grid-relaunch" {
    let base = CommandLine.arguments[2], folder = URL(fileURLWithPath: CommandLine.arguments[3])
    let redownload = CommandLine.arguments[4] == "redownload"
    let disk = try DataCache(directory: folder, sizeLimit: 1 << 30)
    let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader(), dataCache: disk))
    let elapsed = try await seconds {
        try await concurrently(100, width: 100) { i in
            var request = ImageRequest(url: URL(string: "\(base)/\(i).jpg")!, targetSize: CGSize(width: 100, height: 100), scale: 3)
            if redownload { request.cachePolicy = .reloadIgnoringCache }
            _ = try await pipeline.image(for: request)
        }
    }
    await disk.waitForPendingWrites()
    print(String(format: "grid-relaunch %@: %.1f ms to the last of 100 cells", CommandLine.arguments[4], elapsed * 1000))
    exit(0)
}

print("PipelineBench: \(cores) cores")
print(padded("", 46) + "    pipeline       direct")

// MARK: 1. Memory hit
do {
    let memory = MemoryCache()
    let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader(), memoryCache: memory))
    let photo = try encodedPhoto(0)
    let request = ImageRequest(source: .data(id: "photo") { photo }, targetSize: target)
    _ = try await pipeline.image(for: request)
    let key = pipeline.imageKey(for: request)
    let calls = 200_000
    let viaDirect = { await seconds { for _ in 0..<calls { _ = memory.image(for: key) } } }
    let (viaPipeline, direct) = try await best(
        runs,
        {
            try await seconds { for _ in 0..<calls { _ = try await pipeline.image(for: request) } }
        }, viaDirect)
    let (viaSync, directAgain) = await best(
        runs,
        {
            await seconds { for _ in 0..<calls { _ = pipeline.cache.image(for: request) } }
        }, viaDirect)
    row(
        "memory hit, image(for:)", pipeline: viaPipeline / Double(calls) * 1e6, direct: direct / Double(calls) * 1e6,
        unit: "µs/call", higherIsBetter: false)
    row(
        "memory hit, cache.image(for:)", pipeline: viaSync / Double(calls) * 1e6, direct: directAgain / Double(calls) * 1e6,
        unit: "µs/call", higherIsBetter: false)
}

// MARK: 2. Disk hits
do {
    let count = 1_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let disk = try DataCache(directory: directory, sizeLimit: 1 << 30)
    let urls = (0..<count).map { URL(string: "https://bench.invalid/disk/\($0).jpg")! }
    for (index, url) in urls.enumerated() { disk.store(try encodedPhoto(index), for: url.absoluteString) }
    await disk.waitForPendingWrites()
    let decodeOptions = DecodeOptions(target: DecodeTarget(width: 128, height: 128))

    let viaDirect = {
        try await seconds {
            try await concurrently(count, width: cores) { i in
                guard let data = disk.data(for: urls[i].absoluteString) else { throw ImageError.notCached }
                _ = try ImageDecoderRegistry.standard.decode(data, options: decodeOptions)
            }
        }
    }
    /// A new pipeline each run, so every request reads the disk and decodes: with a new, empty
    /// memory cache (the default, which keeps every result: the first row) or with none (the
    /// pipeline's own overhead alone: the second).
    func viaPipeline(memoryCache: (any ImageCaching)?) async throws -> Double {
        let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader(), dataCache: disk, memoryCache: memoryCache))
        return try await seconds {
            try await concurrently(count, width: 64) { i in
                var request = ImageRequest(url: urls[i], targetSize: target)
                request.cachePolicy = .returnCacheDataDontLoad
                _ = try await pipeline.image(for: request)
            }
        }
    }
    let (cached, direct) = try await best(runs, { try await viaPipeline(memoryCache: MemoryCache()) }, viaDirect)
    row(
        "\(count) disk-cached 256×192 JPEGs → 128 px", pipeline: Double(count) / cached, direct: Double(count) / direct,
        unit: "img/s", higherIsBetter: true)
    let (uncached, directAgain) = try await best(runs, { try await viaPipeline(memoryCache: nil) }, viaDirect)
    row(
        "  the same, no memory cache", pipeline: Double(count) / uncached, direct: Double(count) / directAgain,
        unit: "img/s", higherIsBetter: true)
}

// MARK: 3. Loopback downloads
do {
    let count = 300
    let server = TestHTTPServer()
    for index in 0..<count { server.serve("/img/\(index).jpg", data: try encodedPhoto(index), contentType: "image/jpeg") }
    try await server.start()
    let loader = URLSessionDataLoader()
    let decodeOptions = DecodeOptions(target: DecodeTarget(width: 128, height: 128))

    let (viaPipeline, direct) = try await best(
        runs,
        {
            let pipeline = ImagePipeline(configuration: .init(dataLoader: loader))
            return try await seconds {
                try await concurrently(count, width: 64) { i in
                    _ = try await pipeline.image(for: ImageRequest(url: server.url("/img/\(i).jpg"), targetSize: target))
                }
            }
        },
        {
            try await seconds {
                try await concurrently(count, width: 6) { i in
                    var data = Data()
                    for try await event in loader.loadData(for: URLRequest(url: server.url("/img/\(i).jpg"))) {
                        if case .chunk(let chunk) = event { data.append(chunk) }
                    }
                    _ = try ImageDecoderRegistry.standard.decode(data, options: decodeOptions)
                }
            }
        })
    row(
        "\(count) loopback downloads → 128 px", pipeline: Double(count) / viaPipeline, direct: Double(count) / direct,
        unit: "img/s", higherIsBetter: true)
    try await server.shutdown()
}
