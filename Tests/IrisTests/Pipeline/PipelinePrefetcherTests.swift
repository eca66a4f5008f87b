import Foundation
import Testing
@testable import Iris
import IrisTestSupport

extension PipelineTests {
    @Suite("Prefetcher")
    struct Prefetcher {
        static func url(_ index: Int) -> URL { URL(string: "https://example.com/prefetch-\(index).gif")! }

        @Test("prefetching warms the memory cache at low priority, once per image")
        func warmsMemory() async throws {
            let loader = PipelineCountingLoader()
            let memory = PipelineTestMemoryCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, memoryCache: memory)
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            let requests = (0..<5).map { ImageRequest(url: Self.url($0), targetSize: CGSize(width: 16, height: 16)) }
            prefetcher.startPrefetching(with: requests + requests)
            #expect(await pipelineEventually { prefetcher.activeCount == 0 })
            #expect(loader.loadCount == 5)
            for request in requests { #expect(pipeline.cache.image(for: request)?.bitmap.width == 16) }
            // Already cached: nothing to do.
            prefetcher.startPrefetching(with: requests)
            #expect(prefetcher.activeCount == 0)
            #expect(loader.loadCount == 5)
        }

        @Test("prefetches run below visible requests and can be stopped")
        func lowPriorityAndStop() async throws {
            let loader = PipelineCountingLoader(held: true)
            let pipeline = ImagePipeline.testPipeline(loader: loader, maxConcurrentDownloads: 1)
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            let blocker = pipeline.task(for: ImageRequest(url: Self.url(0)))
            #expect(await pipelineEventually { loader.loadCount == 1 })
            prefetcher.startPrefetching(with: [1, 2, 3].map { ImageRequest(url: Self.url($0)) })
            let visible = pipeline.task(for: ImageRequest(url: Self.url(9)))
            prefetcher.stopPrefetching(with: [ImageRequest(url: Self.url(2))])
            #expect(prefetcher.activeCount == 2)
            loader.release()
            _ = try await blocker.image
            _ = try await visible.image
            #expect(await pipelineEventually { prefetcher.activeCount == 0 })
            #expect(loader.startedURLs == [Self.url(0), Self.url(9), Self.url(1), Self.url(3)])

            let held = PipelineCountingLoader(held: true)
            let pipeline2 = ImagePipeline.testPipeline(loader: held)
            let prefetcher2 = ImagePrefetcher(pipeline: pipeline2)
            prefetcher2.startPrefetching(with: [1, 2].map { ImageRequest(url: Self.url($0)) })
            #expect(await pipelineEventually { held.loadCount == 2 })
            prefetcher2.stopPrefetching()
            #expect(prefetcher2.activeCount == 0)
            #expect(await pipelineEventually { held.cancelledCount == 2 && pipeline2.inFlightCount == 0 })
        }

        @Test("a disk-only prefetch stores the data without decoding")
        func diskOnly() async throws {
            let loader = PipelineCountingLoader()
            let decoder = PipelineCountingDecoder()
            let disk = PipelineTestDataCache()
            let memory = PipelineTestMemoryCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, decoder: decoder, memoryCache: memory, dataCache: disk)
            let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache)
            prefetcher.startPrefetching(with: [ImageRequest(url: Self.url(1)), ImageRequest(source: .data(id: "local") { Data() })])
            #expect(await pipelineEventually { prefetcher.activeCount == 0 })
            #expect(disk.keys == [Self.url(1).absoluteString])
            #expect(decoder.decodeCount == 0)
            #expect(memory.count == 0)
            _ = try await pipeline.image(for: Self.url(1))
            #expect(loader.loadCount == 1)
        }
    }
}
