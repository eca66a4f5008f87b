import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// The pipeline engine: coalescing, cancellation, scheduling, caches, prefetching. Nested
/// suites live in the other `Pipeline*Tests.swift` files.
@Suite("Pipeline")
struct PipelineTests {
    static let url = URL(string: "https://example.com/photo.gif")!

    @Test("100 concurrent identical requests load once and decode once")
    func coalescesIdenticalRequests() async throws {
        let loader = PipelineCountingLoader(held: true)
        let decoder = PipelineCountingDecoder()
        let pipeline = ImagePipeline.testPipeline(loader: loader, decoder: decoder)
        let request = ImageRequest(url: Self.url, targetSize: CGSize(width: 32, height: 32))
        let tasks = (0..<100).map { _ in pipeline.task(for: request) }
        #expect(await pipelineEventually { loader.loadCount == 1 })
        loader.release()
        for task in tasks {
            let image = try await task.image
            #expect(image.bitmap.size == PixelSize(width: 32, height: 24))
            #expect(image.sourceSize == PixelSize(width: 64, height: 48))
        }
        #expect(loader.loadCount == 1)
        #expect(decoder.decodeCount == 1)
        #expect(await pipelineEventually { pipeline.inFlightCount == 0 })
    }

    @Test("distinct targets share one load but decode separately")
    func distinctTargetsShareTheLoad() async throws {
        let loader = PipelineCountingLoader(held: true)
        let decoder = PipelineCountingDecoder()
        let pipeline = ImagePipeline.testPipeline(loader: loader, decoder: decoder)
        let sizes = [CGSize(width: 16, height: 16), CGSize(width: 32, height: 32), CGSize(width: 48, height: 48)]
        let tasks = sizes.flatMap { size in
            (0..<5).map { _ in pipeline.task(for: ImageRequest(url: Self.url, targetSize: size)) }
        }
        #expect(await pipelineEventually { loader.loadCount == 1 })
        loader.release()
        var widths: Set<Int> = []
        for task in tasks { widths.insert(try await task.image.bitmap.width) }
        #expect(widths == [16, 32, 48])
        #expect(loader.loadCount == 1)
        #expect(decoder.decodeCount == 3)
    }

    @Test("cancelling 99 of 100 identical requests leaves the last one running to success")
    func cancellingMostKeepsTheRest() async throws {
        let loader = PipelineCountingLoader(held: true)
        let pipeline = ImagePipeline.testPipeline(loader: loader)
        let request = ImageRequest(url: Self.url)
        let tasks = (0..<100).map { _ in pipeline.task(for: request) }
        #expect(await pipelineEventually { loader.loadCount == 1 })
        for task in tasks.dropLast() { task.cancel() }
        for task in tasks.dropLast() {
            await #expect(throws: ImageError.cancelled) { try await task.image }
        }
        loader.release()
        let image = try await tasks.last!.image
        #expect(image.bitmap.size == PixelSize(width: 64, height: 48))
        #expect(loader.cancelledCount == 0)
        #expect(loader.loadCount == 1)
    }

    @Test("cancelling every request cancels the load itself")
    func cancellingAllCancelsTheLoad() async throws {
        let loader = PipelineCountingLoader(held: true)
        let decoder = PipelineCountingDecoder()
        let pipeline = ImagePipeline.testPipeline(loader: loader, decoder: decoder)
        let request = ImageRequest(url: Self.url)
        let tasks = (0..<10).map { _ in pipeline.task(for: request) }
        #expect(await pipelineEventually { loader.loadCount == 1 })
        for task in tasks { task.cancel() }
        #expect(await pipelineEventually { loader.cancelledCount == 1 })
        #expect(await pipelineEventually { pipeline.inFlightCount == 0 })
        // Released after every request left: the cancelled load delivers nothing. A later load
        // through the same loader and decoder is decoded, and it is the only decode.
        loader.release()
        _ = try await pipeline.image(for: ImageRequest(url: URL(string: "https://example.com/later.gif")!))
        #expect(decoder.decodeCount == 1)
    }

    @Test("cancelling the calling Swift task cancels its request with .cancelled")
    func callerCancellation() async throws {
        let loader = PipelineCountingLoader(held: true)
        let pipeline = ImagePipeline.testPipeline(loader: loader)
        let caller = Task { () -> ImageError? in
            do throws(ImageError) {
                _ = try await pipeline.image(for: Self.url)
                return nil
            } catch {
                return error
            }
        }
        #expect(await pipelineEventually { loader.loadCount == 1 })
        caller.cancel()
        #expect(await caller.value == .cancelled)
        #expect(await pipelineEventually { loader.cancelledCount == 1 && pipeline.inFlightCount == 0 })
    }

    @Test("a .data closure runs once for many identical requests")
    func dataClosureCoalesces() async throws {
        let calls = PipelineCounter()
        let gate = PipelineGate()
        let payload = PipelineTestFormat.photo(width: 20, height: 10)
        let pipeline = ImagePipeline.testPipeline()
        let request = ImageRequest(
            source: .data(id: "photo-1") {
                calls.increment()
                await gate.wait()
                return payload
            })
        let tasks = (0..<50).map { _ in pipeline.task(for: request) }
        #expect(await pipelineEventually { calls.count == 1 })
        gate.open()
        for task in tasks { #expect(try await task.image.bitmap.size == PixelSize(width: 20, height: 10)) }
        #expect(calls.count == 1)
    }

    @Test("an error thrown by a .data closure surfaces as .dataLoadingFailed")
    func dataClosureError() async throws {
        struct PhotoLibraryError: Error, CustomStringConvertible {
            var description: String { "asset 42 was deleted" }
        }
        let pipeline = ImagePipeline.testPipeline()
        let request = ImageRequest(source: .data(id: "gone") { throw PhotoLibraryError() })
        await #expect {
            try await pipeline.image(for: request)
        } throws: { ($0 as? ImageError)?.withoutCause == .dataLoadingFailed(reason: "asset 42 was deleted") }
        // An ImageError thrown by the closure passes through unchanged.
        let typed = ImageRequest(source: .data(id: "typed") { throw ImageError.emptyData })
        await #expect(throws: ImageError.emptyData) { try await pipeline.image(for: typed) }
    }

    @Test("file sources are read from disk; a missing file fails with .dataLoadingFailed")
    func fileSource() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-pipeline-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.gif")
        try PipelineTestFormat.photo(width: 40, height: 30).write(to: file)
        let loader = PipelineCountingLoader()
        let pipeline = ImagePipeline.testPipeline(loader: loader)

        let image = try await pipeline.image(for: file)
        #expect(image.bitmap.size == PixelSize(width: 40, height: 30))
        let small = try await pipeline.image(for: ImageRequest(url: file, targetSize: CGSize(width: 10, height: 10)))
        #expect(small.bitmap.size == PixelSize(width: 10, height: 8))
        #expect(loader.loadCount == 0)

        let missing = directory.appendingPathComponent("missing.gif")
        do throws(ImageError) {
            _ = try await pipeline.image(for: missing)
            Issue.record("a missing file loaded")
        } catch {
            guard case .dataLoadingFailed(let reason, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason.contains("missing.gif"))
        }
    }

    @Test("decoding errors reach the caller; processors run in order")
    func decodeErrorsAndProcessors() async throws {
        let pipeline = ImagePipeline.testPipeline()
        let garbage = ImageRequest(source: .data(id: "garbage") { Data("<html><body>nope</body></html>".utf8) })
        await #expect(throws: ImageError.unsupportedFormat(.html)) { try await pipeline.image(for: garbage) }

        let payload = PipelineTestFormat.photo(width: 30, height: 20)
        let processed = ImageRequest(
            source: .data(id: "p") { payload },
            processors: [PipelineCropProcessor(width: 10), PipelineCropProcessor(width: 4)])
        let image = try await pipeline.image(for: processed)
        #expect(image.bitmap.size == PixelSize(width: 4, height: 20))

        let failing = ImageRequest(source: .data(id: "p") { payload }, processors: [PipelineCropProcessor(width: 99)])
        await #expect(throws: ImageError.processingFailed(processor: "test.crop(99)", reason: "wider than the image")) {
            try await pipeline.image(for: failing)
        }
    }

    @Test("progress streams byte counts, and the streams finish when the task ends")
    func progress() async throws {
        let payload = PipelineTestFormat.photo(width: 16, height: 16)
        let loader = PipelineCountingLoader(chunkCount: 4) { _ in payload }
        let pipeline = ImagePipeline.testPipeline(loader: loader)
        let task = pipeline.task(for: ImageRequest(url: Self.url))
        var events: [ImageTask.Progress] = []
        for await event in task.progress { events.append(event) }
        #expect(events.first == ImageTask.Progress(completed: 0, total: payload.count))
        #expect(events.last == ImageTask.Progress(completed: payload.count, total: payload.count))
        #expect(events.count == 5)
        #expect(events.map(\.completed) == events.map(\.completed).sorted())
        var previews = 0
        for await _ in task.previews { previews += 1 }
        #expect(previews == 0)
        _ = try await task.image
    }
}

/// Crops to the left `width` columns; fails when the image is narrower.
struct PipelineCropProcessor: ImageProcessing {
    var width: Int
    var identifier: String { "test.crop(\(width))" }

    func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        guard width <= image.bitmap.width else {
            throw ImageError.processingFailed(processor: identifier, reason: "wider than the image")
        }
        var bitmap = Bitmap(width: width, height: image.bitmap.height, format: image.bitmap.format)
        for y in 0..<bitmap.height {
            for x in 0..<width { bitmap.setRGBA(image.bitmap.rgba(x: x, y: y), x: x, y: y) }
        }
        var result = image
        result.bitmap = bitmap
        return result
    }
}
