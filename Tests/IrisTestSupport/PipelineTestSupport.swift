#if IRIS_TESTABLE
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Iris
import IrisSamples

// Test doubles for the pipeline's mechanics: a trivial image format with a counting decoder, a
// counting and holdable data loader, in-memory caches, a gate, and polling helpers.

/// A trivial image format for pipeline tests, a codec plug-in of its own: "IRISTF", width and
/// height as big-endian UInt32, then raw premultiplied RGBA rows.
package enum PipelineTestFormat {
    package static let magic = Array("IRISTF".utf8)
    /// The format, recognised by ``PipelineCountingDecoder`` alone.
    package static let format = ImageFormat("iris-test", name: "Iris test format")

    /// Encodes `bitmap` (converted to RGBA).
    package static func encode(_ bitmap: Bitmap) -> Data {
        let rgba = bitmap.converted(to: .rgba8)
        var data = Data(magic)
        for value in [UInt32(rgba.width), UInt32(rgba.height)] {
            withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
        }
        for y in 0..<rgba.height {
            let start = y * rgba.bytesPerRow
            data.append(contentsOf: rgba.pixels[start..<(start + rgba.width * 4)])
        }
        return data
    }

    /// A photo-like test image of `width`×`height`, encoded.
    package static func photo(width: Int = 64, height: Int = 48, seed: UInt64 = 1) -> Data {
        encode(SampleImages.photo(width: width, height: height, seed: seed, format: .rgba8))
    }
}

/// Decodes ``PipelineTestFormat`` and counts decodes.
package final class PipelineCountingDecoder: ImageDecoding {
    package init() {}
    package let formats: Set<ImageFormat> = [PipelineTestFormat.format]
    private let decodes = LockedState(0)

    /// Decodes so far.
    package var decodeCount: Int { decodes.withLock { $0 } }

    package func format(of data: Data) -> ImageFormat? {
        data.prefix(6).elementsEqual(PipelineTestFormat.magic) ? PipelineTestFormat.format : nil
    }

    package func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let bytes = [UInt8](data.prefix(14))
        guard bytes.count == 14, Array(bytes[0..<6]) == PipelineTestFormat.magic else {
            throw ImageError.truncated(format: PipelineTestFormat.format, received: data.count, expected: 14)
        }
        func read(_ offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return ImageHeader(format: PipelineTestFormat.format, width: read(6), height: read(10), hasAlpha: true)
    }

    package func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        decodes.withLock { $0 += 1 }
        let header = context.header
        let pixels = [UInt8](data.dropFirst(14))
        guard let bitmap = Bitmap(width: header.width, height: header.height, format: .rgba8, pixels: pixels) else {
            throw ImageError.truncated(
                format: PipelineTestFormat.format, received: data.count, expected: 14 + header.width * header.height * 4)
        }
        return context.outputSize == bitmap.size ? bitmap : Resampler().resize(bitmap, to: context.outputSize)
    }
}

/// A loader serving ``PipelineTestFormat`` images in chunks, counting loads and cancellations.
/// While held, loads wait (cancellably) until ``release()``.
package final class PipelineCountingLoader: DataLoading {
    private struct State {
        var started: [URL] = []
        var cancelled: [URL] = []
    }

    private let state = LockedState(State())
    private let gate: PipelineGate
    private let chunkCount: Int
    private let payload: @Sendable (URL) -> Data

    /// Makes a loader. `held`: loads wait for ``release()``.
    package init(
        held: Bool = false, chunkCount: Int = 4,
        payload: @escaping @Sendable (URL) -> Data = { _ in PipelineTestFormat.photo() }
    ) {
        gate = PipelineGate(isOpen: !held)
        self.chunkCount = chunkCount
        self.payload = payload
    }

    /// URLs in the order their loads started.
    package var startedURLs: [URL] { state.withLock { $0.started } }
    /// Loads started.
    package var loadCount: Int { state.withLock { $0.started.count } }
    /// Loads whose consumer cancelled them.
    package var cancelledCount: Int { state.withLock { $0.cancelled.count } }

    /// Lets held loads (and all later ones) go on.
    package func release() { gate.open() }

    package func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        let url = request.url ?? URL(string: "about:blank")!
        state.withLock { $0.started.append(url) }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: DataLoadingEvent.self)
        let producer = Task { [gate, chunkCount, payload] in
            await gate.wait()
            guard !Task.isCancelled else { return }
            let data = payload(url)
            continuation.yield(.response(DataLoadingResponse(statusCode: 200, expectedLength: data.count, mimeType: "image/gif")))
            let size = max(1, (data.count + chunkCount - 1) / chunkCount)
            var offset = 0
            while offset < data.count {
                continuation.yield(.chunk(data[offset..<min(offset + size, data.count)]))
                offset += size
            }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination {
                self?.state.withLock { $0.cancelled.append(url) }
                producer.cancel()
            }
        }
        return stream
    }
}

/// A one-way gate: `wait()` suspends until `open()`; a cancelled waiter returns at once.
package final class PipelineGate: Sendable {
    private struct State {
        var isOpen: Bool
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: LockedState<State>

    package init(isOpen: Bool = false) { state = LockedState(State(isOpen: isOpen)) }

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    package func wait() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.isOpen || state.cancelled.contains(id) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled.insert(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.resume()
        }
    }
}

/// A plain dictionary memory cache.
package final class PipelineTestMemoryCache: ImageCaching {
    package init() {}
    private let images = LockedState<[ImageCacheKey: LoadedImage]>([:])
    package var count: Int { images.withLock { $0.count } }
    package func image(for key: ImageCacheKey) -> LoadedImage? { images.withLock { $0[key] } }
    package func store(_ image: LoadedImage, for key: ImageCacheKey) { images.withLock { $0[key] = image } }
    package func remove(for key: ImageCacheKey) { _ = images.withLock { $0.removeValue(forKey: key) } }
    package func removeAll() { images.withLock { $0 = [:] } }
}

/// A plain dictionary data cache.
package final class PipelineTestDataCache: DataCaching {
    package init() {}
    private let entries = LockedState<[String: DataCacheEntry]>([:])
    package var keys: Set<String> { entries.withLock { Set($0.keys) } }
    package func entry(for key: String) -> DataCacheEntry? { entries.withLock { $0[key] } }
    package func store(_ entry: DataCacheEntry, for key: String) { entries.withLock { $0[key] = entry } }
    package func remove(for key: String) { _ = entries.withLock { $0.removeValue(forKey: key) } }
    package func removeAll() { entries.withLock { $0 = [:] } }
}

/// Counts calls (of a `.data` closure, for instance).
package final class PipelineCounter: Sendable {
    package init() {}
    private let value = LockedState(0)
    package var count: Int { value.withLock { $0 } }
    package func increment() { value.withLock { $0 += 1 } }
}

/// Polls `condition` every few milliseconds; false when it did not hold within `timeout`.
/// The timeout is only a hang detector (10 minutes), never what a test checks: the whole suite
/// starts at once on a two-thread cooperative pool, so a test's wall time is about the suite's
/// (minutes on a loaded machine), however little work the test itself does.
package nonisolated(nonsending) func pipelineEventually(timeout: Duration = .seconds(600), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// Runs `body`; if it takes longer than `timeout`, cancels it and returns false.
package func pipelineWithTimeout(_ timeout: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await body()
            return true
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

extension ImagePipeline {
    /// A pipeline over the test format, the given loader and optional caches.
    package static func testPipeline(
        loader: any DataLoading = PipelineCountingLoader(),
        decoder: PipelineCountingDecoder = PipelineCountingDecoder(),
        memoryCache: (any ImageCaching)? = nil, dataCache: (any DataCaching)? = nil,
        maxConcurrentDownloads: Int = 6,
        cacheKeyFilter: (@Sendable (URL) -> String)? = nil
    ) -> ImagePipeline {
        ImagePipeline(
            configuration: Configuration(
                dataLoader: loader, dataCache: dataCache, memoryCache: memoryCache,
                decoders: ImageDecoderRegistry(decoders: [decoder]),
                maxConcurrentDownloads: maxConcurrentDownloads, cacheKeyFilter: cacheKeyFilter))
    }
}

extension ImageTask {
    /// The bytes of the first progress report with any, waiting for it (nil if the task ends
    /// first): where a resumed download starts counting.
    package func firstProgressBytes() async -> Int? {
        for await progress in self.progress where progress.completed > 0 { return progress.completed }
        return nil
    }
}

extension DataCacheEntry {
    /// `data` as a response that said nothing about caching, received now: fresh for the HTTP
    /// cache policy's default freshness.
    package static func receivedNow(_ data: Data) -> DataCacheEntry {
        DataCacheEntry(data: data, metadata: HTTPCacheMetadata(headers: [:], requestTime: Date(), responseTime: Date()))
    }
}
#endif
