import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// What a view shows as it loads, fails and succeeds: the decisions behind the views, made by the model on Linux.
@MainActor
@Suite("What a view shows as it loads, fails and succeeds")
struct ViewPhaseTests {
    @Test("setting a request shows a memory hit, a placeholder for a miss, or nothing for nil, before it returns")
    func requestChangesShowSynchronously() async throws {
        let a = try TestImages.png(width: 64, height: 64, seed: 21)
        let b = try TestImages.png(width: 64, height: 48, seed: 22)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let warm = ImageModel(pipeline: pipeline)
        warm.viewLayoutDidChange(slot: ImageSlot(width: 32, height: 32), displayScale: 2)
        warm.loadForView(ImageRequest(source: .data(id: "b") { b }))
        #expect(await modelSettled(warm))

        let cell = ImageModel(pipeline: pipeline)  // a reused cell
        cell.viewLayoutDidChange(slot: ImageSlot(width: 32, height: 32), displayScale: 2)
        cell.loadForView(ImageRequest(source: .data(id: "a") { a }))
        #expect(await modelSettled(cell))
        let completions = cell.resultCount
        cell.loadForView(ImageRequest(source: .data(id: "b") { b }))  // next row: in memory
        guard case .image(let shown) = ImageViewDisplay(phase: cell.displayedPhase, hasFailureImage: false) else {
            Issue.record("after the request was set, the view shows \(cell.phase.kind)")
            return
        }
        #expect(shown.bitmap.size == PixelSize(width: 64, height: 48))
        #expect(cell.resultCount == completions + 1)  // success → success still completes
        // Not in memory: placeholder, not the old row. Its bytes wait for a gate the test never
        // opens, so the load cannot finish (and show) before the check, however busy the machine.
        let gate = PipelineGate()
        cell.loadForView(
            ImageRequest(
                source: .data(id: "c") {
                    await gate.wait()
                    return a
                }))
        guard case .placeholder = ImageViewDisplay(phase: cell.displayedPhase, hasFailureImage: true) else {
            Issue.record("a miss shows \(cell.phase.kind), not the placeholder")
            return
        }
        cell.loadForView(nil)
        #expect(cell.phase.kind == .empty && cell.request == nil)
    }

    @Test("a view given a new request before its first layout shows nothing of the old one")
    func newRequestBeforeLayoutClears() async throws {
        let a = try TestImages.png(width: 32, height: 32, seed: 23)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.loadForView(ImageRequest(source: .data(id: "sized") { a }, targetSize: CGSize(width: 16, height: 16)))
        #expect(await modelSettled(model))
        model.loadForView(ImageRequest(source: .data(id: "unsized") { a }))  // waits for a layout
        #expect(model.phase.kind == .empty && model.request == nil)
        model.viewLayoutDidChange(slot: ImageSlot(width: 8, height: 8), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 16, height: 16))
    }

    @Test("placeholder while empty or loading; the failure image (or the placeholder) after a failure; else the image")
    func displayedContent() {
        let image = LoadedImage(
            bitmap: Bitmap(width: 2, height: 2, format: .rgba8), format: .png,
            sourceSize: PixelSize(width: 2, height: 2))
        func name(_ display: ImageViewDisplay) -> String {
            switch display {
            case .image: "image"
            case .failureImage: "failure"
            case .placeholder: "placeholder"
            }
        }
        #expect(name(ImageViewDisplay(phase: .empty, hasFailureImage: true)) == "placeholder")
        #expect(name(ImageViewDisplay(phase: .loading(nil), hasFailureImage: true)) == "placeholder")
        #expect(name(ImageViewDisplay(phase: .failure(.notCached), hasFailureImage: true)) == "failure")
        #expect(name(ImageViewDisplay(phase: .failure(.notCached), hasFailureImage: false)) == "placeholder")
        #expect(name(ImageViewDisplay(phase: .preview(image), hasFailureImage: true)) == "image")
        #expect(name(ImageViewDisplay(phase: .success(image), hasFailureImage: true)) == "image")
    }

    @Test("transitions: animate what a load delivered, not a memory hit, a reset or progress")
    func transitionDecisions() async throws {
        let photo = try PNGEncoder().encode(SampleImages.photo(width: 64, height: 64, seed: 9), options: EncodeOptions())
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        // The data arrives only once the test opens the gate: delivered after `load` returned,
        // whatever the machine's speed (a result ready before `load` returns is shown as a hit).
        let gate = PipelineGate()
        let request = ImageRequest(
            source: .data(id: "t") {
                await gate.wait()
                return photo
            })
        let model = ImageModel(pipeline: pipeline)
        model.load(request)
        #expect(!model.animatesPhaseChange)  // .loading
        gate.open()
        #expect(await modelSettled(model))
        #expect(model.animatesPhaseChange)  // delivered later: fade in
        model.reset()
        #expect(!model.animatesPhaseChange)
        model.load(request)
        #expect(model.phase.kind == .success)
        #expect(!model.animatesPhaseChange)  // memory hit
    }

    @Test("a load's result goes through the phase-change animator (the transaction); a memory hit does not")
    func transactionWrapsLoadedChanges() async throws {
        let png = try TestImages.png(width: 16, height: 16, seed: 51)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let model = ImageModel(pipeline: pipeline)
        var wrapped: [ImagePhase.Kind] = []
        model.phaseChangeAnimator = { change in
            change()
            wrapped.append(model.phase.kind)
        }
        // Gated: the result arrives after load returns (a result ready before is a memory hit by design).
        let gate = PipelineGate()
        let request = ImageRequest(
            source: .data(id: "animated-in") {
                await gate.wait()
                return png
            },
            targetSize: CGSize(width: 8, height: 8))
        model.load(request)
        #expect(model.phase.kind == .loading)
        gate.open()
        #expect(await modelSettled(model))
        #expect(wrapped == [.success])
        let hit = ImageModel(pipeline: pipeline)
        var hitWrapped = 0
        hit.phaseChangeAnimator = { change in
            hitWrapped += 1
            change()
        }
        hit.load(request)
        #expect(hit.phase.kind == .success && hitWrapped == 0)
    }

    @Test("phase conveniences")
    func phaseConveniences() {
        let image = LoadedImage(
            bitmap: Bitmap(width: 2, height: 2, format: .rgba8), format: .png,
            sourceSize: PixelSize(width: 2, height: 2))
        let progress = ImageTask.Progress(completed: 5, total: 10)
        #expect(ImagePhase.loading(progress).progress == progress)
        #expect(ImagePhase.loading(progress).isLoading)
        #expect(ImagePhase.preview(image).isLoading && ImagePhase.preview(image).loadedImage != nil)
        #expect(ImagePhase.success(image).loadedImage != nil && !ImagePhase.success(image).isLoading)
        #expect(ImagePhase.failure(.notCached).error == .notCached)
        #expect(ImagePhase.empty.loadedImage == nil && ImagePhase.empty.error == nil && !ImagePhase.empty.isLoading)
    }

    @Test("completion counts every result: a success, a memory hit of another image, a failure; not progress or cancel")
    func completionOnEveryResult() async throws {
        let a = try TestImages.png(width: 16, height: 16, seed: 31)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        let request = ImageRequest(source: .data(id: "a") { a })
        model.load(request)
        #expect(model.resultCount == 0)
        #expect(await modelSettled(model))
        #expect(model.resultCount == 1)
        let other = ImageModel(pipeline: model.pipeline)
        other.load(ImageRequest(source: .data(id: "b") { a }))
        #expect(await modelSettled(other))
        model.load(ImageRequest(source: .data(id: "b") { a }))  // memory hit: kind stays .success
        #expect(model.resultCount == 2)
        model.load(ImageRequest(source: .data(id: "bad") { Data("<html>".utf8) }))
        #expect(await modelSettled(model))
        #expect(model.phase.kind == .failure && model.resultCount == 3)
        let gate = PipelineGate()
        model.load(
            ImageRequest(
                source: .data(id: "slow") {
                    await gate.wait()
                    return a
                }))
        model.cancel()
        model.reset()
        gate.open()
        #expect(model.resultCount == 3)
    }

    @Test("a view's settings make its requests: fill and priority survive the url shortcut")
    func settingsMakeRequests() throws {
        let url = try #require(URL(string: "https://example.com/a.jpg"))
        let settings = ImageViewSettings(contentMode: .fill, priority: .high)
        let request = settings.request(for: url)
        #expect(request.contentMode == .fill && request.priority == .high)
        let kept = ImageViewSettings().applied(to: ImageRequest(url: url, contentMode: .fill, priority: .low))
        #expect(kept.contentMode == .fill && kept.priority == .low)
    }

    @Test("a view-owned model cancels on disappear and starts again on appear; a shown image stays")
    func disappearAndAppear() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/slow.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            server.serve("/fast.png", data: png, contentType: "image/png")
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.load(ImageRequest(url: server.url("/slow.png")))
            #expect(await modelEventually { server.requestCount("/slow.png") == 1 })
            model.viewDidDisappear()
            #expect(model.phase.kind == .empty)
            #expect(await modelEventually { server.cancelledRequestCount("/slow.png") == 1 })
            model.viewDidAppear()
            #expect(model.phase.isLoading)
            #expect(await modelEventually { server.requestCount("/slow.png") == 2 })
            server.release("/slow.png")
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success)

            let done = ImageModel(pipeline: .modelTestPipeline())
            done.load(ImageRequest(url: server.url("/fast.png")))
            #expect(await modelSettled(done))
            done.viewDidDisappear()
            done.viewDidAppear()
            #expect(done.phase.kind == .success)
            #expect(server.requestCount("/fast.png") == 1)
        }
    }

    @Test("a scheduled retry does not fire off screen; it runs when the view comes back")
    func retryWaitsForScreen() async throws {
        let png = try HTTPTestImages.png()
        try await withTestServer { server in
            server.serve("/flaky.png", .error(503))
            let clock = VirtualClock()
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.clock = clock
            model.retryPolicy = RetryPolicy(maxRetries: 2, initialDelay: .seconds(1))
            model.load(ImageRequest(url: server.url("/flaky.png")))
            #expect(await modelSettled(model))
            #expect(await modelEventually { clock.sleeperCount == 1 })  // the retry is scheduled
            model.viewDidDisappear()
            #expect(clock.sleeperCount == 0)
            clock.advance(by: .seconds(60))
            #expect(server.requestCount("/flaky.png") == 1 && model.phase.kind == .failure)
            server.serve("/flaky.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            model.viewDidAppear()
            #expect(model.phase.isLoading)
            server.release("/flaky.png")
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success && server.requestCount("/flaky.png") == 2)
        }
    }

    @Test("an image view is an accessibility element once it shows an image, unless the app said otherwise")
    func accessibilityElement() {
        #expect(!ImageViewAccessibility.isElement(showsImage: false, explicit: nil))
        #expect(ImageViewAccessibility.isElement(showsImage: true, explicit: nil))
        #expect(!ImageViewAccessibility.isElement(showsImage: true, explicit: false))
        #expect(ImageViewAccessibility.isElement(showsImage: false, explicit: true))
    }
}
