import Foundation
import Testing
@testable import Iris
import IrisTestSupport

extension PipelineTests {
    /// The pipeline with ``URLSessionDataLoader`` against a real server on loopback: coalescing,
    /// cancellation, priorities, caches and errors, as the server sees them.
    @Suite("Over HTTP")
    struct OverHTTP {
        static func pipeline(
            decodes: PipelineCounter = PipelineCounter(), maxConcurrentDownloads: Int = 6,
            memoryCache: (any ImageCaching)? = nil, dataCache: (any DataCaching)? = nil
        ) -> ImagePipeline {
            ImagePipeline(
                configuration: .init(
                    dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: dataCache,
                    memoryCache: memoryCache,
                    decoders: HTTPCountingDecoder.standard(counting: decodes),
                    maxConcurrentDownloads: maxConcurrentDownloads))
        }

        static func gated(_ data: Data) -> TestHTTPRoute {
            TestHTTPRoute(body: data, contentType: "image/png", isGated: true)
        }

        /// 100 identical tasks for a gated PNG, once its one request has reached the server.
        static func hundredWaitingTasks(on server: TestHTTPServer) async throws -> (ImagePipeline, [ImageTask]) {
            server.serve("/photo.png", gated(try HTTPTestImages.png()))
            let pipeline = pipeline()
            let tasks = (0..<100).map { _ in pipeline.task(for: ImageRequest(url: server.url("/photo.png"))) }
            #expect(await pipelineEventually { server.requestCount("/photo.png") == 1 })
            return (pipeline, tasks)
        }

        @Test("100 concurrent identical requests make one request and one decode")
        func coalescing() async throws {
            let png = try HTTPTestImages.png()
            try await withTestServer { server in
                server.serve("/photo.png", Self.gated(png))
                let decodes = PipelineCounter()
                let pipeline = Self.pipeline(decodes: decodes)
                let request = ImageRequest(url: server.url("/photo.png"), targetSize: CGSize(width: 60, height: 60))
                let tasks = (0..<100).map { _ in pipeline.task(for: request) }
                #expect(await pipelineEventually { server.requestCount("/photo.png") == 1 })
                server.release("/photo.png")
                for task in tasks {
                    let image = try await task.image
                    #expect(image.bitmap.size == PixelSize(width: 60, height: 40))
                    #expect(image.sourceSize == PixelSize(width: 240, height: 160))
                }
                #expect(server.totalRequestCount == 1)
                #expect(decodes.count == 1)
            }
        }

        @Test("distinct target sizes share one download and decode once each")
        func distinctTargetsShareTheDownload() async throws {
            let jpeg = try HTTPTestImages.jpeg()
            try await withTestServer { server in
                server.serve("/photo.jpg", TestHTTPRoute(body: jpeg, contentType: "image/jpeg", isGated: true))
                let decodes = PipelineCounter()
                let pipeline = Self.pipeline(decodes: decodes)
                let sizes = [CGSize(width: 30, height: 30), CGSize(width: 60, height: 60), CGSize(width: 120, height: 120)]
                let tasks = sizes.flatMap { size in
                    (0..<4).map { _ in pipeline.task(for: ImageRequest(url: server.url("/photo.jpg"), targetSize: size)) }
                }
                #expect(await pipelineEventually { server.requestCount("/photo.jpg") == 1 })
                server.release("/photo.jpg")
                var widths: Set<Int> = []
                for task in tasks { widths.insert(try await task.image.bitmap.width) }
                #expect(widths == [30, 60, 120])
                #expect(server.totalRequestCount == 1)
                #expect(decodes.count == 3)
            }
        }

        @Test("cancelling 99 of 100 requests leaves the last one to succeed over the one download")
        func cancellingMostKeepsTheDownload() async throws {
            try await withTestServer { server in
                let (_, tasks) = try await Self.hundredWaitingTasks(on: server)
                for task in tasks.dropLast() { task.cancel() }
                for task in tasks.dropLast() {
                    await #expect(throws: ImageError.cancelled) { try await task.image }
                }
                server.release("/photo.png")
                let image = try await tasks.last!.image
                expectSameBytes(image.bitmap.converted(to: .rgba8), HTTPTestImages.source.converted(to: .rgba8))
                #expect(server.totalRequestCount == 1)
                #expect(server.cancelledRequestCount == 0)
            }
        }

        @Test("cancelling all 100 requests cancels the download: the client closes the connection")
        func cancellingAllCancelsTheDownload() async throws {
            try await withTestServer { server in
                let (pipeline, tasks) = try await Self.hundredWaitingTasks(on: server)
                for task in tasks { task.cancel() }
                #expect(await pipelineEventually { server.cancelledRequestCount("/photo.png") == 1 })
                #expect(await pipelineEventually { pipeline.inFlightCount == 0 })
                for task in tasks {
                    await #expect(throws: ImageError.cancelled) { try await task.image }
                }
            }
        }

        @Test("with one download slot, a later high-priority request reaches the server before earlier low ones")
        func priorityOrdersRequests() async throws {
            let png = try HTTPTestImages.png()
            try await withTestServer { server in
                server.serve("/first.png", Self.gated(png))
                for path in ["/a.png", "/b.png", "/c.png"] { server.serve(path, data: png, contentType: "image/png") }
                let pipeline = Self.pipeline(maxConcurrentDownloads: 1)
                let first = pipeline.task(for: ImageRequest(url: server.url("/first.png")))
                #expect(await pipelineEventually { server.requestCount("/first.png") == 1 })
                let a = pipeline.task(for: ImageRequest(url: server.url("/a.png"), priority: .low))
                let b = pipeline.task(for: ImageRequest(url: server.url("/b.png"), priority: .low))
                let c = pipeline.task(for: ImageRequest(url: server.url("/c.png"), priority: .high))
                server.release("/first.png")
                for task in [first, a, b, c] { _ = try await task.image }
                #expect(server.requestLog == ["/first.png", "/c.png", "/a.png", "/b.png"])
            }
        }

        @Test("raising a queued request's priority moves its request forward")
        func raisingPriorityReorders() async throws {
            let png = try HTTPTestImages.png()
            try await withTestServer { server in
                server.serve("/first.png", Self.gated(png))
                for path in ["/a.png", "/b.png", "/c.png"] { server.serve(path, data: png, contentType: "image/png") }
                let pipeline = Self.pipeline(maxConcurrentDownloads: 1)
                let first = pipeline.task(for: ImageRequest(url: server.url("/first.png"), priority: .low))
                #expect(await pipelineEventually { server.requestCount("/first.png") == 1 })
                let queued = ["/a.png", "/b.png", "/c.png"].map {
                    pipeline.task(for: ImageRequest(url: server.url($0), priority: .low))
                }
                queued[2].priority = .veryHigh
                server.release("/first.png")
                for task in [first] + queued { _ = try await task.image }
                #expect(server.requestLog == ["/first.png", "/c.png", "/a.png", "/b.png"])
            }
        }

        @Test("a memory-cache hit makes no request")
        func memoryHit() async throws {
            let png = try HTTPTestImages.png()
            try await withTestServer { server in
                server.serve("/photo.png", data: png, contentType: "image/png")
                let pipeline = Self.pipeline(memoryCache: MemoryCache())
                let url = server.url("/photo.png")
                let first = try await pipeline.image(for: url)
                let second = try await pipeline.image(for: url)
                expectSameBytes(second.bitmap, first.bitmap)
                #expect(server.totalRequestCount == 1)
            }
        }

        @Test("a disk-cache hit after a restart makes no request")
        func diskHitAfterRestart() async throws {
            let png = try HTTPTestImages.png()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-http-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await withTestServer { server in
                server.serve("/photo.png", data: png, contentType: "image/png")
                let url = server.url("/photo.png")
                let firstCache = try DataCache(directory: directory)
                let first = try await Self.pipeline(dataCache: firstCache).image(for: url)
                await firstCache.waitForPendingWrites()
                #expect(server.totalRequestCount == 1)

                let decodes = PipelineCounter()
                let restarted = Self.pipeline(decodes: decodes, dataCache: try DataCache(directory: directory))
                let second = try await restarted.image(for: url)
                expectSameBytes(second.bitmap, first.bitmap)
                #expect(decodes.count == 1)
                #expect(server.totalRequestCount == 1)
            }
        }

        @Test("404, 500, an HTML page and a dropped connection surface as the right ImageError")
        func failures() async throws {
            let png = try HTTPTestImages.png()
            try await withTestServer { server in
                server.serve("/missing.png", .error(404))
                server.serve("/broken.png", .error(500))
                server.serve("/portal.png", .htmlPage())
                server.serve("/cut.png", TestHTTPRoute(body: png, contentType: "image/png", dropAfterBytes: 2048))
                let pipeline = Self.pipeline()
                let expected: [(String, ImageError)] = [
                    ("/missing.png", .httpStatus(code: 404, url: server.url("/missing.png"))),
                    ("/broken.png", .httpStatus(code: 500, url: server.url("/broken.png"))),
                    ("/portal.png", .notAnImage(.html, url: server.url("/portal.png"))),
                    (
                        "/cut.png",
                        .network(
                            reason: "connection lost after 2,048 of \(png.count.grouped) bytes",
                            url: server.url("/cut.png"))
                    ),
                ]
                for (path, error) in expected {
                    await #expect { try await pipeline.image(for: server.url(path)) } throws: { ($0 as? ImageError)?.withoutCause == error }
                }
            }
        }
    }
}
