import Foundation
import IrisSamples
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// The decisions the Apple views forward to the core: which size to decode, when to reload,
/// when to cancel and restart, when to animate.
@MainActor
@Suite("View logic")
struct ViewLogicTests {
    @Test(
        "size buckets round up by an eighth of the next power of two, 16 px at least",
        arguments: [
            (1, 16), (16, 16), (17, 32), (100, 112), (300, 320), (320, 320), (321, 384),
            (1000, 1024), (1025, 1280), (4000, 4096),
        ])
    func buckets(pixels: Int, bucket: Int) {
        #expect(ViewTargetSize.bucket(pixels) == bucket)
    }

    @Test("a bucket is never smaller than the view, and larger by less than a quarter (or 16 px)")
    func bucketBounds() {
        for pixels in 1...5000 {
            let bucket = ViewTargetSize.bucket(pixels)
            #expect(bucket >= pixels && bucket - pixels < max(16, (pixels + 3) / 4), "\(pixels) → \(bucket)")
        }
    }

    @Test("a closed slot × scale, rounded up, then bucketed, in the request's content mode")
    func closedSlot() {
        let target = ViewTargetSize.decodeTarget(
            for: ImageSlot(width: 100, height: 50), displayScale: 3, imageScale: 1,
            contentMode: .fill)
        #expect(target == .init(pixels: PixelSize(width: 320, height: 160), contentMode: .fill, scale: 3))
        let odd = ViewTargetSize.decodeTarget(
            for: ImageSlot(width: 33.4, height: 33.4), displayScale: 2, imageScale: 1,
            contentMode: .fit)
        #expect(odd?.pixels == PixelSize(width: 80, height: 80))  // 66.8 → 67 → 80
    }

    @Test("the tracker keeps a larger decode, reloads for more pixels or for half as many, re-keys the same pixels")
    func trackerDecisions() {
        func target(_ width: Int, _ height: Int, _ mode: ContentMode = .fill) -> ViewTargetSize.Target {
            .init(pixels: PixelSize(width: width, height: height), contentMode: mode, scale: 3)
        }
        var tracker = DecodeSizeTracker()
        #expect(tracker.decision(for: target(1280, 112), dataKey: "a", shown: nil) == .load(target(1280, 112)))
        // Loading, source unknown: boxes compared.
        #expect(tracker.decision(for: target(1152, 112), dataKey: "a", shown: nil) == .keep)
        #expect(tracker.decision(for: target(1280, 896), dataKey: "a", shown: nil) == .load(target(1280, 896)))
        // Shown, 1600×1200 source: both boxes cover it with 1280×960, so the new box re-keys.
        var shown = DecodeSizeTracker()
        _ = shown.decision(for: target(1280, 112), dataKey: "a", shown: nil)
        #expect(
            shown.decision(
                for: target(1280, 896), dataKey: "a", shown: (PixelSize(width: 1600, height: 1200), PixelSize(width: 1280, height: 960)))
                == .rekey(target(1280, 896)))
        // Less than half of the decode on both sides: decoded again, smaller; a little less: kept.
        #expect(
            shown.decision(
                for: target(1152, 864), dataKey: "a", shown: (PixelSize(width: 1600, height: 1200), PixelSize(width: 1280, height: 960)))
                == .keep)
        #expect(
            shown.decision(
                for: target(320, 240), dataKey: "a", shown: (PixelSize(width: 1600, height: 1200), PixelSize(width: 1280, height: 960)))
                == .load(target(320, 240)))
        #expect(shown.decision(for: target(64, 64), dataKey: "b", shown: nil) == .load(target(64, 64)))
    }

    @Test("a view that grows past the decoded size reloads, keeping the smaller image up; shrinking does not")
    func reloadOnGrowOnly() async throws {
        let decodes = PipelineCounter()
        let photo = try PNGEncoder().encode(SampleImages.photo(width: 1200, height: 800, seed: 3), options: EncodeOptions())
        let pipeline = ImagePipeline(
            configuration: .init(
                memoryCache: MemoryCache(),
                decoders: HTTPCountingDecoder.standard(counting: decodes)))
        let model = ImageModel(pipeline: pipeline)
        model.slotContentMode = .fit  // a UIKit view set to fit
        // The second load of the bytes (the larger decode) waits for the test to have looked at
        // what is shown meanwhile, however busy the machine.
        let gate = PipelineGate()
        let loads = PipelineCounter()
        let request = ImageRequest(
            source: .data(id: "photo") {
                loads.increment()
                if loads.count > 1 { await gate.wait() }
                return photo
            }, contentMode: .fit)

        model.load(request, in: ImageSlot(width: 100, height: 100), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 224, height: 149))  // 200 px → 224; fits 224×224
        #expect(model.phase.loadedImage?.scale == 224.0 / 1200)  // natural size: 1200 pt

        let recorder = PhaseRecorder(model)
        model.load(request, in: ImageSlot(width: 60, height: 60), displayScale: 2)  // shrinks
        model.load(request, in: ImageSlot(width: 102, height: 101), displayScale: 2)  // same bucket
        #expect(recorder.phases.isEmpty)
        #expect(decodes.count == 1)

        model.load(request, in: ImageSlot(width: 200, height: 200), displayScale: 2)  // grows
        guard case .preview(let shown) = model.phase else {
            Issue.record("phase while the larger decode loads is \(model.phase.kind)")
            return
        }
        #expect(shown.bitmap.size == PixelSize(width: 224, height: 149))
        gate.open()
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 448, height: 299))  // fits 448×448
        #expect(decodes.count == 2)
        #expect(recorder.kinds == [.preview, .success])
    }

    @Test("a request without a target size waits for the layout, then decodes at the view's size")
    func loadForView() async throws {
        let photo = try PNGEncoder().encode(SampleImages.photo(width: 1200, height: 800, seed: 4), options: EncodeOptions())
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.loadForView(ImageRequest(source: .data(id: "p") { photo }, contentMode: .fill))
        #expect(model.phase.kind == .empty && model.request == nil)  // no size yet
        model.viewLayoutDidChange(slot: ImageSlot(width: 50, height: 50), displayScale: 3)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 240, height: 160))  // fills 160×160
        #expect(model.phase.loadedImage?.scale == 240.0 / 1200)  // natural size: 1200 pt

        // A request with its own target size loads at once, whatever the layout.
        let sized = ImageModel(pipeline: ImagePipeline(configuration: .init()))
        let gate = PipelineGate()  // the data arrives only after the loading phase is checked
        sized.loadForView(
            ImageRequest(
                source: .data(id: "p") {
                    await gate.wait()
                    return photo
                }, targetSize: CGSize(width: 30, height: 30)))
        #expect(sized.phase.isLoading)
        gate.open()
        #expect(await modelSettled(sized))
        #expect(sized.phase.loadedImage?.bitmap.size == PixelSize(width: 30, height: 20))
        sized.viewLayoutDidChange(slot: ImageSlot(width: 500, height: 500), displayScale: 2)
        #expect(sized.phase.loadedImage?.bitmap.size == PixelSize(width: 30, height: 20))
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
}

/// Which frame of an animation a view shows when.
@Suite("Animation timing")
struct AnimationTimingTests {
    static func animation(_ durations: [Double], loopCount: Int = 0) -> Animation {
        Animation(
            frames: durations.indices.map { _ in Bitmap(width: 1, height: 1, format: .rgba8) },
            durations: durations, loopCount: loopCount)
    }

    @Test("frames follow their durations and loop; delays of 10 ms or less play as 100 ms")
    func frameSequence() {
        let animation = Self.animation([0.05, 0.0, 0.01, 0.2])  // plays as 50, 100, 100, 200 ms
        #expect(animation.displayDuration(at: 1) == 0.1 && animation.displayDuration(at: 2) == 0.1)
        let shown = stride(from: 0.0, to: 0.9, by: 0.05).map { animation.frameIndex(atElapsed: $0 + 0.001) }
        #expect(shown == [0, 1, 1, 2, 2, 3, 3, 3, 3, 0, 1, 1, 2, 2, 3, 3, 3, 3])
    }

    @Test("a late tick skips frames rather than slowing down; a finite loop count ends on the last frame")
    func lateTicksAndLoopCount() {
        let animation = Self.animation([0.1, 0.1, 0.1], loopCount: 2)
        #expect(animation.frameIndex(atElapsed: 0.05) == 0)
        #expect(animation.frameIndex(atElapsed: 0.25) == 2)  // frame 1 skipped
        #expect(animation.frameIndex(atElapsed: 0.35) == 0)  // second loop
        #expect(animation.frameIndex(atElapsed: 0.65) == 2)
        #expect(animation.frameIndex(atElapsed: 10) == 2)  // stays on the last frame
        #expect(Self.animation([0.1, 0.1]).frameIndex(atElapsed: 10.05) == 0)  // forever
        #expect(Self.animation([0.1]).frameIndex(atElapsed: 5) == 0)
    }
}
