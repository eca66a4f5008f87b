import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// The loading API users of Nuke expect: original data, a cache front end, a configuration
/// builder, prefetch completion.
@Suite("Pipeline API")
struct PipelineAPITests {
    static func png(seed: UInt64 = 1) throws -> Data {
        try TestImages.png(width: 64, height: 48, seed: seed)
    }

    @Test("data(for:) gives the original bytes, from the disk cache the second time, shared with an image load")
    func originalData() async throws {
        let png = try Self.png()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestServer { server in
            server.serve("/a.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let pipeline = ImagePipeline {
                $0.dataLoader = URLSessionDataLoader(timeout: httpHangTimeout)
                $0.dataCache = try? DataCache(directory: directory, synchronizesWrites: true)
            }
            let request = ImageRequest(url: server.url("/a.png"))
            let image = pipeline.task(for: request)
            let data = Task { try await pipeline.data(for: request) }
            #expect(await pipelineEventually { server.requestCount("/a.png") == 1 })
            server.release("/a.png")
            let shared = try await data.value
            let decoded = try await image.image
            let fromDisk = try await pipeline.data(for: request)
            expectSameBytes(shared, png, "shared")
            expectSameBytes(fromDisk, png, "from disk")
            #expect(decoded.bitmap.size == PixelSize(width: 64, height: 48))
            #expect(server.requestCount("/a.png") == 1)  // shared, then from disk
        }
    }

    @Test("data(for:) cancelled throws cancelled; a failing source keeps its error")
    func originalDataErrors() async throws {
        let gate = PipelineGate()
        let started = PipelineCounter()
        let pipeline = ImagePipeline(configuration: .init())
        let waiting = Task {
            try await pipeline.data(
                for: ImageRequest(
                    source: .data(id: "held") {
                        started.increment()
                        await gate.wait()
                        return Data()
                    }))
        }
        #expect(await pipelineEventually { started.count == 1 })  // the load is under way
        waiting.cancel()
        await #expect(throws: ImageError.cancelled) { try await waiting.value }
        gate.open()
        await #expect(throws: ImageError.dataLoadingFailed(reason: "gone")) {
            try await pipeline.data(for: ImageRequest(source: .data(id: "bad") { throw ImageError.dataLoadingFailed(reason: "gone") }))
        }
    }

    @Test("the cache front end reads, stores, checks and removes per request, in memory and on disk")
    func cacheFrontEnd() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = ImagePipeline {
            $0.dataCache = try? DataCache(directory: directory, synchronizesWrites: true)
        }
        let request = ImageRequest(url: URL(string: "https://example.com/a.png")!, targetSize: CGSize(width: 10, height: 10))
        let image = LoadedImage(
            bitmap: Bitmap(width: 10, height: 8, format: .rgba8), format: .png,
            sourceSize: PixelSize(width: 100, height: 80))
        #expect(!pipeline.cache.contains(request))
        pipeline.cache.store(image, for: request)
        let png = try Self.png()
        pipeline.cache.storeData(png, for: request)
        expectSameBytes(pipeline.cache.image(for: request)?.bitmap, image.bitmap)
        expectSameBytes(pipeline.cache.data(for: request), png)
        #expect(pipeline.cache.contains(request, in: .memory) && pipeline.cache.contains(request, in: .disk))
        pipeline.cache.remove(request, from: .memory)
        #expect(!pipeline.cache.contains(request, in: .memory) && pipeline.cache.contains(request, in: .disk))
        pipeline.cache.store(image, for: request)
        pipeline.cache.removeAll()
        #expect(!pipeline.cache.contains(request))
    }

    @Test("a pipeline made by the builder has what the closure set; the default has a memory cache")
    func builder() {
        let pipeline = ImagePipeline {
            $0.maxConcurrentDecodes = 1
            $0.memoryCache = nil
            $0.isProgressiveDecodingEnabled = true
        }
        #expect(pipeline.configuration.maxConcurrentDecodes == 1)
        #expect(pipeline.configuration.memoryCache == nil)
        #expect(pipeline.configuration.isProgressiveDecodingEnabled)
        #expect(ImagePipeline(configuration: .init()).configuration.memoryCache is MemoryCache)
    }

    @Test("a prefetcher can be awaited: it returns when all are in memory, at once when idle, and when stopped")
    func prefetcherCompletion() async throws {
        let pipeline = ImagePipeline(configuration: .init())
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        await prefetcher.waitUntilFinished()  // idle: at once
        let requests = try (1...5).map { seed in
            let png = try Self.png(seed: UInt64(seed))
            return ImageRequest(source: .data(id: "p\(seed)") { png })
        }
        prefetcher.startPrefetching(with: requests)
        await prefetcher.waitUntilFinished()
        #expect(prefetcher.activeCount == 0)
        #expect(requests.allSatisfy { pipeline.cache.image(for: $0) != nil })

        let gate = PipelineGate()
        prefetcher.startPrefetching(with: [
            ImageRequest(
                source: .data(id: "held") {
                    await gate.wait()
                    return try Self.png()
                })
        ])
        #expect(prefetcher.activeCount == 1)
        let waiting = Task { await prefetcher.waitUntilFinished() }
        #expect(await pipelineEventually { prefetcher.waiterCount == 1 })  // waiting before the stop
        prefetcher.stopPrefetching()
        await waiting.value
        #expect(prefetcher.activeCount == 0)
        gate.open()
    }
}

extension PipelineAPITests {
    struct LibraryError: Error, Equatable { var asset: Int }

    @Test("errors keep their cause: the data closure's own error and the loader's URLError code")
    func causes() async throws {
        let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader(timeout: httpHangTimeout)))
        do {
            _ = try await pipeline.image(for: ImageRequest(source: .data(id: "x") { throw LibraryError(asset: 42) }))
            Issue.record("a throwing closure loaded")
        } catch {
            // Compared by kind and reason: the cause is part of the error's equality.
            #expect(error.kind == .dataLoadingFailed)
            #expect(error == .dataLoadingFailed(reason: "LibraryError(asset: 42)", cause: ErrorCause(LibraryError(asset: 42))))
            #expect(error.underlyingError as? LibraryError == LibraryError(asset: 42))
        }
        let refused = try await withTestServer { server in server.url("/gone.png") }  // server stopped
        do {
            _ = try await pipeline.image(for: ImageRequest(url: refused))
            Issue.record("a refused connection loaded")
        } catch {
            guard case .network = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.urlErrorCode == .cannotConnectToHost, "\(String(describing: error.underlyingError))")
        }
    }
}
