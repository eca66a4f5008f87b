import Foundation
import IrisSamples
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// ``ImageModel`` through a real pipeline, a real loader and a loopback server: the phases a view
/// sees.
@MainActor
@Suite("ImageModel")
struct ImageModelTests {
    static let target = CGSize(width: 60, height: 60)

    @Test("success: loading, then success at the target size, animated in")
    func success() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/photo.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let model = ImageModel(pipeline: .modelTestPipeline())
            let recorder = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/photo.png"), targetSize: Self.target, scale: 2))
            #expect(model.phase.isLoading)
            server.release("/photo.png")
            #expect(await modelSettled(model))
            let image = try #require(model.phase.loadedImage)
            #expect(image.bitmap.size == PixelSize(width: 120, height: 80))  // 240×160 fits 120×120
            #expect(image.scale == 2)
            #expect(image.format == .png)
            #expect(model.animatesPhaseChange)
            #expect(recorder.kinds == [.loading, .success])
            #expect(model.phase.error == nil && !model.phase.isLoading)
        }
    }

    @Test("failure: 404, an HTML page and undecodable bytes each end in their ImageError")
    func failures() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/missing.png", .error(404))
            server.serve("/portal.png", .htmlPage())
            server.serve("/cut.png", data: png.prefix(png.count / 2), contentType: "image/png")
            let pipeline = ImagePipeline.modelTestPipeline()
            var errors: [ImageError] = []
            for path in ["/missing.png", "/portal.png", "/cut.png"] {
                let model = ImageModel(pipeline: pipeline)
                let recorder = PhaseRecorder(model)
                model.load(ImageRequest(url: server.url(path)))
                #expect(await modelSettled(model))
                #expect(recorder.kinds.drop { $0 == .loading } == [.failure])  // loading is seen unless the load beat `load`'s return
                errors.append(try #require(model.phase.error))
            }
            #expect(errors[0] == .httpStatus(code: 404, url: server.url("/missing.png")))
            #expect(errors[1] == .notAnImage(.html, url: server.url("/portal.png")))
            guard case .truncated(.png, _, _) = errors[2] else {
                Issue.record("half a PNG gave \(errors[2])")
                return
            }
        }
    }

    @Test("cancel stops the download, goes back to empty, and the result never lands")
    func cancel() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/slow.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.load(ImageRequest(url: server.url("/slow.png")))
            #expect(await modelEventually { server.requestCount("/slow.png") == 1 })
            model.cancel()
            #expect(model.phase.kind == .empty)
            #expect(await modelEventually { server.cancelledRequestCount("/slow.png") == 1 })
            server.release("/slow.png")
            // Nothing of the cancelled load is left to deliver: no task, and the phase stays.
            #expect(model.inFlightTask == nil)
            #expect(model.phase.kind == .empty)
        }
    }

    @Test("a new id mid-load: the old load is cancelled and its result never lands")
    func idChangeMidLoad() async throws {
        let first = try PNGEncoder().encode(SampleImages.photo(width: 80, height: 60, seed: 1), options: EncodeOptions())
        let second = try PNGEncoder().encode(SampleImages.photo(width: 50, height: 50, seed: 2), options: EncodeOptions())
        let gate = PipelineGate()
        let firstStarted = PipelineCounter()
        let firstCancelled = PipelineCounter()
        let firstReturned = PipelineCounter()
        let model = ImageModel(pipeline: .modelTestPipeline())
        let recorder = PhaseRecorder(model)
        model.load(
            ImageRequest(
                source: .data(id: "first") {
                    firstStarted.increment()
                    await gate.wait()
                    if Task.isCancelled { firstCancelled.increment() }
                    defer { firstReturned.increment() }
                    return first
                }))
        #expect(await modelEventually { firstStarted.count == 1 })
        model.load(ImageRequest(source: .data(id: "second") { second }))
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 50, height: 50))
        #expect(await modelEventually { firstCancelled.count == 1 })
        gate.open()
        #expect(await modelEventually { firstReturned.count == 1 })  // the old load's bytes are back
        #expect(await modelEventually { model.pipeline.inFlightCount == 0 })  // and its work has ended
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 50, height: 50))
        #expect(recorder.phases.compactMap(\.loadedImage).allSatisfy { $0.bitmap.width == 50 })
    }

    @Test("a memory-cache hit is success before load returns, with no transition and no task")
    func memoryHitIsSynchronous() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/photo.png", data: png, contentType: "image/png")
            let pipeline = ImagePipeline.modelTestPipeline()
            let request = ImageRequest(url: server.url("/photo.png"), targetSize: Self.target)
            let warm = ImageModel(pipeline: pipeline)
            warm.load(request)
            #expect(await modelSettled(warm))

            let model = ImageModel(pipeline: pipeline)
            let recorder = PhaseRecorder(model)
            model.load(request)
            guard case .success(let image) = model.phase else {
                Issue.record("phase right after load is \(model.phase.kind), not success")
                return
            }
            _ = expectSameBytes(warm.phase.loadedImage?.bitmap, image.bitmap)
            #expect(!model.animatesPhaseChange)
            #expect(recorder.kinds == [.success])
            #expect(model.inFlightTask == nil)
            #expect(server.requestCount("/photo.png") == 1)
        }
    }

    @Test("progress: values grow to the full length while the body arrives piece by piece")
    func progress() async throws {
        let png = try PNGEncoder().encode(SampleImages.photo(width: 400, height: 300, seed: 5), options: EncodeOptions())
        try await withTestServer { server in
            let route = TestHTTPRoute.inPieces(body: png, pieceSize: 16_384, contentType: "image/png")
            server.serve("/big.png", route)
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.progressInterval = .zero  // every chunk (pacing: ProgressPacingTests)
            let recorder = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/big.png"), targetSize: Self.target))
            // Each piece goes once the one before it shows as progress.
            for piece in 1..<route.pieceCount {
                #expect(await modelEventually { (model.phase.progress?.completed ?? 0) >= piece * 16_384 })
                server.releasePieces("/big.png", through: piece)
            }
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success)
            let values = recorder.progressValues
            #expect(values.count >= route.pieceCount - 1, "only \(values.count) progress values for \(route.pieceCount) pieces")
            #expect(values.map(\.completed) == values.map(\.completed).sorted())
            #expect(values.allSatisfy { $0.total == png.count })
            #expect(values.last?.completed == png.count)
            #expect(values.last?.fractionCompleted == 1)
        }
    }

    @Test("a progressive JPEG shows previews at the target size before the final image")
    func progressivePreviews() async throws {
        let photo = SampleImages.photo(width: 640, height: 480, seed: 31)
        let jpeg = try JPEGEncoder().encode(photo, options: EncodeOptions(quality: 90, progressive: true))
        try await withTestServer { server in
            let route = TestHTTPRoute.inPieces(body: jpeg, pieceSize: 4096, contentType: "image/jpeg")
            server.serve("/p.jpg", route)
            var scans = JPEGScanCounter()
            let firstScanPiece = try #require(
                (0..<route.pieceCount).first { piece in
                    scans.append(jpeg[(piece * 4096)..<min((piece + 1) * 4096, jpeg.count)])
                })
            let model = ImageModel(pipeline: .modelTestPipeline(progressive: true))
            let recorder = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/p.jpg"), targetSize: CGSize(width: 160, height: 160)))
            // The body stops after the first scan until its preview shows, then the rest goes.
            server.releasePieces("/p.jpg", through: firstScanPiece)
            #expect(await modelEventually { model.phase.kind == .preview })
            server.releasePieces("/p.jpg", through: route.pieceCount - 1)
            #expect(await modelSettled(model))
            #expect(recorder.kinds.first == .loading)
            #expect(recorder.kinds.contains(.preview))
            #expect(recorder.kinds.last == .success)
            let previews = recorder.phases.compactMap { phase -> LoadedImage? in
                if case .preview(let image) = phase { return image }
                return nil
            }
            #expect(previews.allSatisfy { $0.isPreview && $0.bitmap.size == PixelSize(width: 160, height: 120) })
            #expect(model.phase.loadedImage?.isPreview == false)
        }
    }

    @Test("a shared model notifies every observer of a phase change")
    func sharedModelTwoObservers() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/photo.png", data: png, contentType: "image/png")
            let model = ImageModel(pipeline: .modelTestPipeline())
            let first = PipelineCounter()
            let second = PipelineCounter()
            observePhase(of: model) { first.increment() }
            observePhase(of: model) { second.increment() }
            model.load(ImageRequest(url: server.url("/photo.png")))
            #expect(first.count == 1 && second.count == 1)  // .loading, seen at once by both

            observePhase(of: model) { first.increment() }
            observePhase(of: model) { second.increment() }
            #expect(await modelSettled(model))
            #expect(first.count == 2 && second.count == 2)  // .success, seen by both
        }
    }

    @Test("retry after a failure loads again and succeeds once the server does")
    func retryAfterFailure() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/flaky.png", .error(503))
            let model = ImageModel(pipeline: .modelTestPipeline())
            let request = ImageRequest(url: server.url("/flaky.png"))
            model.load(request)
            #expect(await modelSettled(model))
            #expect(model.phase.error == .httpStatus(code: 503, url: server.url("/flaky.png")))
            model.load(request)  // the same request: no new attempt
            #expect(model.phase.kind == .failure)
            server.serve("/flaky.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            model.retry()
            #expect(model.phase.isLoading)
            server.release("/flaky.png")
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success)
            #expect(server.requestCount("/flaky.png") == 2)
        }
    }

    @Test("a retry policy retries a 503 by itself, and never a 404")
    func automaticRetry() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/flaky.png", .error(503))
            server.serve("/gone.png", .error(404))
            let pipeline = ImagePipeline.modelTestPipeline()
            let clock = VirtualClock()
            let model = ImageModel(pipeline: pipeline)
            model.clock = clock
            model.retryPolicy = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(300))
            model.load(ImageRequest(url: server.url("/flaky.png")))
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .failure)
            server.serve("/flaky.png", data: png, contentType: "image/png")
            #expect(await modelEventually { clock.sleeperCount == 1 })  // the retry waits on the clock
            clock.advance(by: .milliseconds(299))
            #expect(model.phase.kind == .failure && clock.sleeperCount == 1)
            clock.advance(by: .milliseconds(1))
            #expect(await modelEventually { model.phase.kind == .success })
            #expect(server.requestCount("/flaky.png") == 2)

            let notFound = ImageModel(pipeline: pipeline)
            notFound.clock = clock
            notFound.retryPolicy = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(50))
            notFound.load(ImageRequest(url: server.url("/gone.png")))
            #expect(await modelSettled(notFound))
            #expect(notFound.retryTimer == nil && clock.sleeperCount == 0)  // a 404 schedules nothing
            #expect(server.requestCount("/gone.png") == 1)
        }
    }

    @Test("loading the request already shown does nothing; nil resets")
    func sameRequestIsNoOp() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/photo.png", data: png, contentType: "image/png")
            let model = ImageModel(pipeline: .modelTestPipeline(memoryCache: nil))
            let request = ImageRequest(url: server.url("/photo.png"))
            model.load(request)
            model.load(request)  // while loading
            #expect(await modelSettled(model))
            let recorder = PhaseRecorder(model)
            model.load(request)  // while shown
            #expect(recorder.phases.isEmpty)
            #expect(server.requestCount("/photo.png") == 1)
            model.load(nil)
            #expect(model.phase.kind == .empty)
            #expect(model.request == nil)
        }
    }

    @Test("priority follows the request and, when set, the running task")
    func priority() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/slow.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.load(ImageRequest(url: server.url("/slow.png"), priority: .low))
            #expect(model.priority == .low)
            #expect(model.inFlightTask?.priority == .low)
            model.priority = .veryHigh
            #expect(model.inFlightTask?.priority == .veryHigh)
            server.release("/slow.png")
            #expect(await modelSettled(model))
        }
    }

    @Test("a model that goes away cancels its download")
    func deinitCancels() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/slow.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            var model: ImageModel? = ImageModel(pipeline: .modelTestPipeline())
            model?.load(ImageRequest(url: server.url("/slow.png")))
            #expect(await modelEventually { server.requestCount("/slow.png") == 1 })
            weak let weakModel = model
            model = nil
            #expect(await modelEventually { weakModel == nil })
            #expect(await modelEventually { server.cancelledRequestCount("/slow.png") == 1 })
        }
    }
}
