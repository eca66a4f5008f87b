import Foundation
import IrisSamples
import Observation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// The decisions behind what `IrisImage` and `IrisImageView` do at runtime (issue: "the views,
/// right at runtime"), each proven here on the platform-neutral model the views forward to.
@MainActor
@Suite("Views at runtime")
struct ViewRuntimeTests {
    /// A pipeline with a memory cache whose decodes are counted.
    static func countingPipeline(_ decodes: PipelineCounter) -> ImagePipeline {
        ImagePipeline(configuration: .init(memoryCache: MemoryCache(), decoders: HTTPCountingDecoder.standard(counting: decodes)))
    }

    /// A request whose result is a three-frame animation of 0.1 s frames (frame `i` is red `i`).
    static func animatedRequest(id: String, loopCount: Int = 0) throws -> ImageRequest {
        let png = try PNGEncoder().encode(Bitmap(width: 4, height: 4, format: .rgba8), options: EncodeOptions())
        let frames = AnimationPlayerTests.animation([0.1, 0.1, 0.1], loopCount: loopCount)
        return ImageRequest(
            source: .data(id: id) { png },
            processors: [
                .custom("frames") { image in
                    var animated = image
                    animated.animation = frames
                    return animated
                }
            ])
    }

    // MARK: 1. A player nobody shows ends

    @Test("a playing player that nobody holds is released at once and leaves nothing to wake")
    func releasedPlayerStops() async throws {
        let clock = VirtualClock()
        var player: AnimationPlayer? = try await AnimationPlayerTests.player(
            AnimationPlayerTests.animation([0.1, 0.1, 0.1]), clock: clock)
        player?.play()
        #expect(await modelEventually { clock.sleeperCount == 1 })  // the runner sleeps to the next frame
        weak let released = player
        player = nil
        #expect(released == nil)  // the sleeping runner held it weakly
        #expect(await modelEventually { clock.sleeperCount == 0 })
    }

    @Test("100 screens that showed a looping animation, popped: no player and no model outlives them")
    func poppedScreensStopTheirAnimations() async throws {
        let clock = VirtualClock()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let request = try Self.animatedRequest(id: "loop")
        var players: [() -> AnimationPlayer?] = []
        var models: [() -> ImageModel?] = []
        for _ in 0..<100 {
            var model: ImageModel? = ImageModel(pipeline: pipeline)
            model?.clock = clock
            model?.load(request)
            #expect(await modelSettled(try #require(model)))
            let player = try #require(model?.animationPlayer)
            #expect(player.isPlaying)
            weak let weakPlayer = player
            weak let weakModel = model
            players.append { weakPlayer }
            models.append { weakModel }
            model = nil  // the screen is popped
        }
        #expect(await modelEventually { models.allSatisfy { $0() == nil } && players.allSatisfy { $0() == nil } })
        #expect(await modelEventually { clock.sleeperCount == 0 })
    }

    // MARK: 2, 3. The decode size comes from the slot

    @Test("the target comes from the slot: closed, one side open (a scroll axis), both open (natural size)")
    func slotTargets() {
        let closed = ViewTargetSize.decodeTarget(
            for: ImageSlot(width: 50, height: 50), displayScale: 2, imageScale: 1,
            contentMode: .fill)
        #expect(closed == .init(pixels: PixelSize(width: 112, height: 112), contentMode: .fill, scale: 2))
        let column = ViewTargetSize.decodeTarget(
            for: ImageSlot(width: 100, height: .infinity), displayScale: 2,
            imageScale: 1, contentMode: .fill)
        #expect(column == .init(pixels: PixelSize(width: 224, height: ViewTargetSize.openSidePixels), contentMode: .fit, scale: 2))
        let open = ViewTargetSize.decodeTarget(
            for: ImageSlot(measured: .zero), displayScale: 3, imageScale: 1.5,
            contentMode: .fill)
        #expect(open == .init(pixels: PixelSize(width: 4096, height: 4096), contentMode: .fit, scale: 1.5))
        #expect(ImageSlot(width: 0, height: -3) == .open && ImageSlot(width: .nan, height: 10).width == nil)
    }

    @Test("an EmptyView placeholder (a slot measured as nothing) still loads, at the image's natural size")
    func openSlotLoadsNaturalSize() async throws {
        let photo = try TestImages.png(width: 300, height: 200, seed: 11)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        let gate = PipelineGate()  // the data arrives only after the loading phase is checked
        model.loadForView(
            ImageRequest(
                source: .data(id: "natural") {
                    await gate.wait()
                    return photo
                }, scale: 2))
        model.viewLayoutDidChange(slot: ImageSlot(measured: .zero), displayScale: 3)
        #expect(model.phase.isLoading)
        gate.open()
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 300, height: 200))
        #expect(model.phase.loadedImage?.scale == 2)  // the request's scale, as AsyncImage(url:scale:)
    }

    @Test("a slot with one open side fits the other: a 1200×800 photo in a 100 pt column at 2x is 224 px wide")
    func columnSlot() async throws {
        let photo = try TestImages.png(width: 1200, height: 800, seed: 12)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.load(
            ImageRequest(source: .data(id: "column") { photo }, contentMode: .fill),
            in: ImageSlot(width: 100, height: nil), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 224, height: 149))
    }

    @Test("scaledToFill in a 120 pt square: one decode covering the slot, one completion, one call of the data closure")
    func fillSlotLoadsOnce() async throws {
        let photo = try TestImages.png(width: 800, height: 600, seed: 13)
        let decodes = PipelineCounter()
        let calls = PipelineCounter()
        let model = ImageModel(pipeline: Self.countingPipeline(decodes))
        let slot = ImageSlot(width: 120, height: 120)
        model.viewLayoutDidChange(slot: slot, displayScale: 2)
        model.loadForView(
            model.dataRequest(id: 1) {
                calls.increment()
                return photo
            }.contentMode(.fill))
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 341, height: 256))  // covers 240 px → 256
        // The content overflows its frame (160×120 pt); the slot it is offered does not change.
        model.viewLayoutDidChange(slot: slot, displayScale: 2)
        model.viewLayoutDidChange(slot: ImageSlot(width: 120, height: 120), displayScale: 2)
        #expect(decodes.count == 1 && calls.count == 1 && model.resultCount == 1)
    }

    @Test("a display scale change (a window moved to a sharper screen) decodes again, larger")
    func displayScaleChange() async throws {
        let photo = try TestImages.png(width: 800, height: 800, seed: 14)
        let decodes = PipelineCounter()
        let model = ImageModel(pipeline: Self.countingPipeline(decodes))
        model.loadForView(ImageRequest(source: .data(id: "scale") { photo }))
        model.viewLayoutDidChange(slot: ImageSlot(width: 50, height: 50), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 112, height: 112))
        model.viewLayoutDidChange(slot: ImageSlot(width: 50, height: 50), displayScale: 3)
        #expect(await modelEventually { model.phase.kind == .success && model.phase.loadedImage?.bitmap.width == 160 })
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 160, height: 160))
        #expect(decodes.count == 2)
    }

    // MARK: 4. Data ids and cache keys

    @Test("equal ids of two views never share an image; a cache key shares it; another type is another id")
    func dataSourceKeys() async throws {
        func solid(_ colour: RGBA) throws -> Data {
            var bitmap = Bitmap(width: 8, height: 8, format: .rgba8)
            for y in 0..<8 { for x in 0..<8 { bitmap.setRGBA(colour, x: x, y: y) } }
            return try PNGEncoder().encode(bitmap, options: EncodeOptions())
        }
        let red = try solid(RGBA(r: 255, g: 0, b: 0))
        let blue = try solid(RGBA(r: 0, g: 0, b: 255))
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let target = CGSize(width: 8, height: 8)
        let post = ImageModel(pipeline: pipeline)
        let author = ImageModel(pipeline: pipeline)
        post.load(post.dataRequest(id: 7, targetSize: target) { red })
        author.load(author.dataRequest(id: 7, targetSize: target) { blue })  // post.id == author.id == 7
        #expect(await modelSettled(post))
        #expect(await modelSettled(author))
        #expect(post.phase.loadedImage?.bitmap.rgba(x: 0, y: 0).r == 255)
        #expect(author.phase.loadedImage?.bitmap.rgba(x: 0, y: 0).b == 255)

        var keys = DataSourceKeys()
        let first = keys.key(id: 7, cacheKey: nil, place: nil)
        #expect(keys.key(id: 7, cacheKey: nil, place: nil) == first)  // same id: same key, no reload
        #expect(keys.key(id: Int64(7), cacheKey: nil, place: nil) != first)  // another type: another id
        #expect(keys.key(id: 8, cacheKey: nil, place: nil) != first)
        #expect(keys.key(id: 8, cacheKey: "avatar-8", place: nil).string == "avatar-8")

        let calls = PipelineCounter()
        let one = ImageModel(pipeline: pipeline)
        let other = ImageModel(pipeline: pipeline)
        one.load(
            one.dataRequest(id: "a", cacheKey: "avatar-7", targetSize: target) {
                calls.increment()
                return red
            })
        #expect(await modelSettled(one))
        other.load(
            other.dataRequest(id: "b", cacheKey: "avatar-7", targetSize: target) {
                calls.increment()
                return blue
            })
        #expect(other.phase.kind == .success)  // shared: a memory hit
        #expect(calls.count == 1)
    }

    @Test("a class id: a new instance with another value reloads; the same value does not")
    func classIDs() {
        final class Post: Equatable, Sendable {
            let number: Int
            init(_ number: Int) { self.number = number }
            static func == (lhs: Post, rhs: Post) -> Bool { lhs.number == rhs.number }
        }
        var keys = DataSourceKeys()
        let first = keys.key(id: Post(1), cacheKey: nil, place: nil)
        #expect(keys.key(id: Post(1), cacheKey: nil, place: nil) == first)
        #expect(keys.key(id: Post(2), cacheKey: nil, place: nil) != first)
        var otherView = DataSourceKeys()
        #expect(otherView.key(id: Post(1), cacheKey: nil, place: nil) != first)  // another view: another key
    }

    // MARK: 5, 6, 7, 10. What the UIKit/AppKit view shows, at once

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

    // MARK: 8, 9. Playback

    @Test("an animation pauses off screen, in the background and when switched off, and wakes nothing meanwhile")
    func playbackPauses() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try Self.animatedRequest(id: "pause"))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(await modelEventually { clock.sleeperCount == 1 })
        let switches: [(pause: () -> Void, resume: () -> Void)] = [
            ({ model.viewDidDisappear() }, { model.viewDidAppear() }),
            ({ model.appDidChange(isActive: false) }, { model.appDidChange(isActive: true) }),
            ({ model.playsAnimations = false }, { model.playsAnimations = true }),
        ]
        for (pause, resume) in switches {
            pause()
            #expect(!player.isPlaying)
            #expect(await modelEventually { clock.sleeperCount == 0 })
            let index = player.currentIndex
            clock.advance(by: .seconds(10))
            #expect(player.currentIndex == index && clock.sleeperCount == 0)
            resume()
            #expect(player.isPlaying)
            #expect(await modelEventually { clock.sleeperCount == 1 })
        }
        model.viewDidDisappear()
        model.appDidChange(isActive: false)
        model.viewDidAppear()  // on screen, still in the background
        #expect(!player.isPlaying)
    }

    @Test("a finite loop ends on its last frame, stops waking, and does not start again")
    func finishedAnimationStops() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try Self.animatedRequest(id: "once", loopCount: 1))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(await modelEventually { clock.sleeperCount == 1 })
        for _ in 0..<4 {  // 0.1 s a frame, one loop of 0.3 s
            clock.advance(by: .seconds(0.1))
            _ = await modelEventually { clock.sleeperCount == 1 || player.hasFinished }
        }
        #expect(await modelEventually { player.hasFinished && player.currentIndex == 2 })
        #expect(!player.isPlaying && clock.sleeperCount == 0)
        model.viewDidDisappear()
        model.viewDidAppear()
        #expect(!player.isPlaying && clock.sleeperCount == 0)
    }

    @Test("switching animation on tracks the frames: the drawn phase changes with the switch and with each frame")
    func switchingAnimationOnTracksFrames() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.playsAnimations = false
        model.load(try Self.animatedRequest(id: "switch"))
        #expect(await modelSettled(model))
        let changed = PipelineCounter()
        withObservationTracking {
            _ = model.displayedPhase
        } onChange: {
            changed.increment()
        }
        model.playsAnimations = true  // a view's animatesFrames false → true
        #expect(changed.count == 1)
        withObservationTracking {
            _ = model.displayedPhase
        } onChange: {
            changed.increment()
        }
        clock.advance(by: .seconds(0.15))
        #expect(await modelEventually { changed.count == 2 })
        #expect(model.displayedPhase.loadedImage?.bitmap.rgba(x: 0, y: 0).r == 1)
    }

    // MARK: 11. A retry waits for the screen

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
}

extension ImageRequest {
    /// The request with `contentMode`.
    func contentMode(_ contentMode: ContentMode) -> ImageRequest {
        var request = self
        request.contentMode = contentMode
        return request
    }
}
