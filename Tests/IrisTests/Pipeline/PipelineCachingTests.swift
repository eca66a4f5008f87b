import Foundation
import Testing
@testable import Iris
import IrisTestSupport

extension PipelineTests {
    @Suite("Caching")
    struct Caching {
        static let url = URL(string: "https://example.com/cached.gif")!

        @Test("a memory-cache hit returns without calling the loader, and cachedImage reads it synchronously")
        func memoryCacheHit() async throws {
            let loader = PipelineCountingLoader()
            let decoder = PipelineCountingDecoder()
            let memory = PipelineTestMemoryCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, decoder: decoder, memoryCache: memory)
            let request = ImageRequest(url: Self.url, targetSize: CGSize(width: 20, height: 20))
            #expect(pipeline.cache.image(for: request) == nil)
            let first = try await pipeline.image(for: request)
            #expect(loader.loadCount == 1)
            #expect(memory.count == 1)

            let cached = try #require(pipeline.cache.image(for: request))
            expectSameBytes(cached.bitmap, first.bitmap)
            let task = pipeline.task(for: request)
            #expect(task.result != nil)  // already done: no suspension, no placeholder
            let second = try await task.image
            expectSameBytes(second.bitmap, first.bitmap)
            #expect(loader.loadCount == 1)
            #expect(decoder.decodeCount == 1)

            // Another target size is another entry.
            #expect(pipeline.cache.image(for: ImageRequest(url: Self.url, targetSize: CGSize(width: 10, height: 10))) == nil)
        }

        @Test("the data cache is read before loading and written after")
        func dataCache() async throws {
            let loader = PipelineCountingLoader()
            let disk = PipelineTestDataCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, dataCache: disk)
            _ = try await pipeline.image(for: ImageRequest(url: Self.url, targetSize: CGSize(width: 8, height: 8)))
            #expect(disk.keys == [Self.url.absoluteString])
            #expect(loader.loadCount == 1)
            // No memory cache: a different target decodes again, from the disk cache.
            let image = try await pipeline.image(for: ImageRequest(url: Self.url, targetSize: CGSize(width: 16, height: 16)))
            #expect(image.bitmap.width == 16)
            #expect(loader.loadCount == 1)
        }

        @Test("a disk-cache hit is read and decoded in one decode job, with no fetch stage; a miss reads the disk once, then loads")
        func diskHitInOneJob() async throws {
            let loader = PipelineCountingLoader()
            let disk = InFlightRecordingDataCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, dataCache: disk)
            disk.record { pipeline.inFlight }
            disk.store(.receivedNow(PipelineTestFormat.photo(width: 12, height: 6)), for: Self.url.absoluteString)

            let hit = try await pipeline.image(for: ImageRequest(url: Self.url, targetSize: CGSize(width: 6, height: 6)))
            #expect(hit.bitmap.size == PixelSize(width: 6, height: 3))
            let hitReads = disk.takeReads()
            #expect(hitReads.count == 1)
            #expect(hitReads.first.map { ($0.fetchStages, $0.imageStages, $0.runningJobs) } ?? (-1, -1, -1) == (0, 1, 1))
            #expect(loader.loadCount == 0)

            // A miss: the decode job finds nothing and follows the fetch stage, which loads
            // without reading the disk again.
            let other = URL(string: "https://example.com/other.gif")!
            _ = try await pipeline.image(for: ImageRequest(url: other, targetSize: CGSize(width: 6, height: 6)))
            let missReads = disk.takeReads()
            #expect(missReads.map(\.fetchStages) == [0])
            #expect(loader.loadCount == 1)
            #expect(disk.data(for: other.absoluteString) != nil)
        }

        @Test("data(for:) and an image load of the same uncached data each read the disk once and share one download")
        func dataAndImageShareOneLoad() async throws {
            let loader = PipelineCountingLoader(held: true)
            let disk = InFlightRecordingDataCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, dataCache: disk)
            disk.record { pipeline.inFlight }
            async let data = pipeline.data(for: ImageRequest(url: Self.url))
            async let image = pipeline.image(for: ImageRequest(url: Self.url, targetSize: CGSize(width: 8, height: 8)))
            // Both have read the disk and follow the one load, held by the loader: the data
            // request's fetch stage and the load's, the image's image stage, one running job.
            #expect(
                await pipelineEventually {
                    let now = pipeline.inFlight
                    return loader.loadCount == 1 && now.fetchStages == 2 && now.imageStages == 1 && now.runningJobs == 1
                        && now.queuedJobs == 0
                })
            loader.release()
            let (loaded, decoded) = try await (data, image)
            expectSameBytes(loaded, PipelineTestFormat.photo(), "data(for:)")
            #expect(decoded.bitmap.size.width == 8)
            #expect(loader.loadCount == 1)
            #expect(disk.takeReads().count == 2)
            #expect(disk.data(for: Self.url.absoluteString) != nil)
        }

        @Test(".returnCacheDataDontLoad fails with .notCached on a miss and never loads")
        func cacheOnlyMiss() async throws {
            let loader = PipelineCountingLoader()
            let disk = PipelineTestDataCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, memoryCache: PipelineTestMemoryCache(), dataCache: disk)
            var request = ImageRequest(url: Self.url)
            request.cachePolicy = .returnCacheDataDontLoad
            await #expect(throws: ImageError.notCached) { try await pipeline.image(for: request) }
            let calls = PipelineCounter()
            let local = ImageRequest(
                source: .data(id: "x") {
                    calls.increment()
                    return PipelineTestFormat.photo()
                },
                cachePolicy: .returnCacheDataDontLoad)
            await #expect(throws: ImageError.notCached) { try await pipeline.image(for: local) }
            #expect(loader.loadCount == 0)
            #expect(calls.count == 0)

            // Once the data is on disk, the same request succeeds without loading.
            disk.store(.receivedNow(PipelineTestFormat.photo(width: 12, height: 6)), for: Self.url.absoluteString)
            #expect(try await pipeline.image(for: request).bitmap.size == PixelSize(width: 12, height: 6))
            #expect(loader.loadCount == 0)
        }

        @Test(".reloadIgnoringCache skips reading both caches but still stores")
        func reloadIgnoringCache() async throws {
            let loader = PipelineCountingLoader()
            let memory = PipelineTestMemoryCache()
            let disk = PipelineTestDataCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, memoryCache: memory, dataCache: disk)
            _ = try await pipeline.image(for: ImageRequest(url: Self.url))
            var reload = ImageRequest(url: Self.url)
            reload.cachePolicy = .reloadIgnoringCache
            #expect(pipeline.cache.image(for: reload) == nil)
            _ = try await pipeline.image(for: reload)
            #expect(loader.loadCount == 2)
            _ = try await pipeline.image(for: ImageRequest(url: Self.url))
            #expect(loader.loadCount == 2)
        }

        @Test("cacheKeyFilter drops volatile query parameters from every key")
        func cacheKeyFilter() async throws {
            let loader = PipelineCountingLoader(held: true)
            let memory = PipelineTestMemoryCache()
            let pipeline = ImagePipeline.testPipeline(loader: loader, memoryCache: memory) { url in
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                components.query = nil
                return components.string!
            }
            let signed1 = ImageRequest(url: URL(string: "https://example.com/a.gif?signature=1")!)
            let signed2 = ImageRequest(url: URL(string: "https://example.com/a.gif?signature=2")!)
            #expect(pipeline.dataKey(for: signed1) == "https://example.com/a.gif")
            let tasks = [pipeline.task(for: signed1), pipeline.task(for: signed2)]
            #expect(await pipelineEventually { loader.loadCount == 1 })
            loader.release()
            for task in tasks { _ = try await task.image }
            #expect(loader.loadCount == 1)
            let signed3 = ImageRequest(url: URL(string: "https://example.com/a.gif?signature=3")!)
            #expect(pipeline.cache.image(for: signed3) != nil)
            // An explicit cache key still wins.
            var custom = signed1
            custom.options.cacheKey = "custom"
            #expect(pipeline.dataKey(for: custom) == "custom")
        }

        @Test("keepsData attaches the original bytes; otherwise they are dropped")
        func keepsData() async throws {
            let payload = PipelineTestFormat.photo(width: 8, height: 8)
            let pipeline = ImagePipeline.testPipeline()
            let plain = try await pipeline.image(for: ImageRequest(source: .data(id: "k") { payload }))
            #expect(plain.data?.count == nil)
            let kept = try await pipeline.image(
                for: ImageRequest(
                    source: .data(id: "k") { payload },
                    options: .init(keepsData: true)))
            expectSameBytes(kept.data, payload)
        }
    }
}
