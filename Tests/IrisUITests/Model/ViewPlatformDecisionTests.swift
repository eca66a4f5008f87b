import Foundation
import IrisSamples
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// The decisions behind the views' runtime fixes of the "views on every platform" review: what a
/// prefetch warms, what the memory cache charges for a re-keyed row, what a second view of a photo
/// in memory shows before layout, what plays when nobody watches or the user turned auto-play off,
/// when a UIKit view follows scrolling, and where a clip starts.
@MainActor
@Suite("View decisions across platforms")
struct ViewPlatformDecisionTests {
    // MARK: Prefetching warms what the views show

    @Test("a grid prefetched with the views' own requests: every cell's load is a memory hit, no second decode")
    func prefetchWarmsTheViews() async throws {
        let decodes = PipelineCounter()
        let pipeline = ViewRuntimeTests.countingPipeline(decodes)
        var photos: [Data] = []
        for seed in 0..<6 { photos.append(try TestImages.png(width: 800, height: 600, seed: UInt64(40 + seed))) }
        let requests = photos.enumerated().map { index, photo in
            ImageRequest(source: .data(id: "grid-\(index)") { photo })
        }
        // A 3-column grid on a 390-pt screen at 3×: 130-pt square cells.
        let slot = ImageSlot(width: 130, height: 130)
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: requests.map { $0.sizedForView(in: slot, displayScale: 3) })
        await prefetcher.waitUntilFinished()
        #expect(decodes.count == requests.count)

        for request in requests {
            let model = ImageModel(pipeline: pipeline)
            let recorder = PhaseRecorder(model)
            model.loadForView(request)  // as IrisImage does on appear
            model.viewLayoutDidChange(slot: slot, displayScale: 3)  // then its slot arrives
            guard case .success(let image) = model.phase else {
                Issue.record("a prefetched cell is \(model.phase.kind) after layout, not success")
                return
            }
            #expect(image.bitmap.width >= 390 && image.bitmap.height >= 390 && image.bitmap.width < 800)  // covers the cell
            #expect(recorder.kinds == [.success])
            #expect(model.inFlightTask == nil)
        }
        #expect(decodes.count == requests.count)  // no cell decoded again
    }

    @Test("the view's request for a slot: the slot × the scale, bucketed, covering unless the view fits")
    func sizedForView() {
        let request = ImageRequest(url: URL(string: "https://example.com/a.jpg")!)
        let covering = request.sizedForView(in: ImageSlot(width: 100, height: 100), displayScale: 3)
        #expect(covering.targetSize == CGSize(width: 320.0 / 3, height: 320.0 / 3))  // 300 px → bucket 320
        #expect(covering.contentMode == .fill && covering.scale == 3)
        let fitting = request.sizedForView(in: ImageSlot(width: 100, height: 100), displayScale: 3, contentMode: .fit)
        #expect(fitting.contentMode == .fit)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.slotContentMode = .fit
        model.load(ImageViewSettings(contentMode: .fit).applied(to: request), in: ImageSlot(width: 100, height: 100), displayScale: 3)
        #expect(model.request.map(model.pipeline.imageKey(for:)) == model.pipeline.imageKey(for: fitting))
        #expect(request.sizedForView(in: ImageSlot(width: 100, height: 100), displayScale: 0).targetSize == nil)
    }

    @Test("a view over an image service: its slot's rendition, re-keyed for a slot it covers, the next step for a larger one")
    func viewOverAService() async throws {
        let rendition384 = try TestImages.png(width: 384, height: 384, seed: 54)
        let rendition640 = try TestImages.png(width: 640, height: 640, seed: 54)
        try await withTestServer { server in
            let service = ImgproxyService(baseURL: server.url("/"), formats: [.png])
            let source = server.url("/originals/p.jpg")
            func path(_ side: Int) -> String {
                "/insecure"
                    + service.path(for: source, rendition: ImageRendition(width: side, height: side, contentMode: .fill, format: .png))
            }
            server.serve(path(384), data: rendition384, contentType: "image/png")
            server.serve(path(640), TestHTTPRoute(body: rendition640, contentType: "image/png", isGated: true))
            let pipeline = ImagePipeline {
                $0.dataLoader = URLSessionDataLoader(timeout: httpHangTimeout)
                $0.imageService = service
                $0.imageServiceFailover = ImageServiceFailover(clock: VirtualClock())  // time moves only when told
            }
            let model = ImageModel(pipeline: pipeline)
            model.loadForView(ImageRequest(url: source))
            model.viewLayoutDidChange(slot: ImageSlot(width: 128, height: 128), displayScale: 3)  // 384 px: a step
            #expect(await modelSettled(model))
            let first = try #require(model.phase.loadedImage)
            #expect(first.bitmap.size == PixelSize(width: 384, height: 384))
            model.viewLayoutDidChange(slot: ImageSlot(width: 128, height: 100), displayScale: 3)  // the same pixels cover it
            #expect(model.phase.loadedImage?.bitmap.sharesStorage(with: first.bitmap) == true)
            #expect(model.inFlightTask == nil)
            model.viewLayoutDidChange(slot: ImageSlot(width: 200, height: 200), displayScale: 3)  // 600 px → 640
            #expect(model.phase.kind == .preview)  // the smaller stays up
            server.release(path(640))
            #expect(await modelSettled(model))
            #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 640, height: 640))
            #expect(server.requestCount(path(384)) == 1 && server.requestCount(path(640)) == 1)
            #expect(server.requestCount("/originals/p.jpg") == 0)
        }
    }

    // MARK: The memory cache charges pixels once

    @Test("a row that grows from its spinner to its final size is charged once in the memory cache")
    func rekeyedRowIsChargedOnce() async throws {
        let decodes = PipelineCounter()
        let cache = MemoryCache()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: cache, decoders: HTTPCountingDecoder.standard(counting: decodes)))
        let photo = try TestImages.png(width: 1600, height: 1200, seed: 51)
        let model = ImageModel(pipeline: pipeline)
        model.loadForView(ImageRequest(source: .data(id: "row") { photo }))
        model.viewLayoutDidChange(slot: ImageSlot(width: 390, height: 44), displayScale: 3)  // as tall as a spinner
        #expect(await modelSettled(model))
        let image = try #require(model.phase.loadedImage)
        model.viewLayoutDidChange(slot: ImageSlot(width: 390, height: 292), displayScale: 3)  // as tall as the photo
        #expect(model.phase.loadedImage?.bitmap.sharesStorage(with: image.bitmap) == true)  // re-keyed, not decoded
        #expect(decodes.count == 1)
        #expect(cache.count == 1)
        #expect(cache.totalCost == image.cost)
        #expect(cache.contains(pipeline.imageKey(for: try #require(model.request))))
    }

    @Test("the cache holds one copy of the same pixels and finds the largest decode of a source at any size")
    func sameSourceLookup() throws {
        let cache = MemoryCache()
        let small = LoadedImage(
            bitmap: Bitmap(width: 40, height: 30, format: .rgba8), format: .png, sourceSize: PixelSize(width: 400, height: 300))
        let large = LoadedImage(
            bitmap: Bitmap(width: 200, height: 150, format: .rgba8), format: .png, sourceSize: PixelSize(width: 400, height: 300))
        let smallKey = ImageCacheKey(dataKey: "a", target: DecodeTarget(size: PixelSize(width: 40, height: 40), contentMode: .fit))
        let largeKey = ImageCacheKey(dataKey: "a", target: DecodeTarget(size: PixelSize(width: 200, height: 200), contentMode: .fit))
        let movedKey = ImageCacheKey(dataKey: "a", target: DecodeTarget(size: PixelSize(width: 200, height: 180), contentMode: .fit))
        cache.store(small, for: smallKey)
        cache.store(large, for: largeKey)
        let found = try #require(cache.image(sameSourceAs: ImageCacheKey(dataKey: "a")))
        #expect(found.key == largeKey && found.image.bitmap.width == 200)
        #expect(cache.image(sameSourceAs: ImageCacheKey(dataKey: "a", processors: ["blur"])) == nil)  // other pixels
        #expect(cache.image(sameSourceAs: ImageCacheKey(dataKey: "b")) == nil)
        cache.store(large, for: movedKey)  // the same pixels under another key: moved
        #expect(cache.count == 2)
        #expect(cache.totalCost == small.cost + large.cost)
        #expect(!cache.contains(largeKey) && cache.contains(movedKey))
    }

    // MARK: A memory hit does not wait for layout

    @Test("a second model of a URL in memory shows it before any layout: success at once, no placeholder, no download")
    func memoryHitBeforeLayout() async throws {
        let png = try TestImages.png(width: 1200, height: 900, seed: 52)
        try await withTestServer { server in
            server.serve("/detail.png", data: png, contentType: "image/png")
            let decodes = PipelineCounter()
            let pipeline = ImagePipeline(
                configuration: .init(
                    dataLoader: URLSessionDataLoader(timeout: httpHangTimeout),
                    memoryCache: MemoryCache(),
                    decoders: HTTPCountingDecoder.standard(counting: decodes)))
            let request = ImageRequest(url: server.url("/detail.png"))
            let list = ImageModel(pipeline: pipeline)
            list.loadForView(request)
            list.viewLayoutDidChange(slot: ImageSlot(width: 300, height: 225), displayScale: 2)
            #expect(await modelSettled(list))
            let listImage = try #require(list.phase.loadedImage)

            let detail = ImageModel(pipeline: pipeline)
            let recorder = PhaseRecorder(detail)
            detail.loadForView(request)  // before any layout
            guard case .success(let shown) = detail.phase else {
                Issue.record("before layout the second model is \(detail.phase.kind), not success")
                return
            }
            #expect(shown.bitmap.sharesStorage(with: listImage.bitmap))
            // Laid out in a slot the image covers: kept, re-keyed, nothing loads.
            detail.viewLayoutDidChange(slot: ImageSlot(width: 290, height: 218), displayScale: 2)
            #expect(detail.phase.loadedImage?.bitmap.sharesStorage(with: listImage.bitmap) == true)
            #expect(detail.inFlightTask == nil)
            #expect(recorder.kinds == [.success])
            #expect(server.requestCount("/detail.png") == 1)
            #expect(decodes.count == 1)

            // A slot that needs more pixels keeps the image up and decodes once more (its bytes
            // held at the server until the test has looked).
            server.serve("/detail.png", TestHTTPRoute(body: png, contentType: "image/png", isGated: true))
            detail.viewLayoutDidChange(slot: ImageSlot(width: 600, height: 450), displayScale: 2)
            #expect(detail.phase.kind == .preview)
            server.release("/detail.png")
            #expect(await modelSettled(detail))
            #expect(detail.phase.loadedImage?.bitmap.width == 1200)
            #expect(recorder.kinds == [.success, .preview, .success])
            #expect(decodes.count == 2)
        }
    }

    // MARK: What plays

    @Test("a shared model stops once its last viewer leaves; a model no view ever showed plays")
    func lastViewerLeaving() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewRuntimeTests.animatedRequest(id: "last-viewer"))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(player.isPlaying)  // driven by code
        let detail = ImageViewer()
        model.viewer(detail, onScreen: true)
        #expect(player.isPlaying)
        model.viewerDidLeave(detail)  // the detail view was popped
        #expect(!player.isPlaying)
        #expect(await modelEventually { clock.sleeperCount == 0 })  // nothing left to wake
        let again = ImageViewer()
        model.viewer(again, onScreen: true)  // pushed again
        #expect(player.isPlaying)
    }

    @Test("with Animated Images off the first frame shows; with video auto-play off the poster stays, no player")
    func userPreferences() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewRuntimeTests.animatedRequest(id: "preferences"))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(player.isPlaying)
        model.userPreferencesDidChange(playsAnimatedImages: false)
        #expect(!player.isPlaying)
        model.userPreferencesDidChange(autoplaysVideo: false)  // the other switch changes nothing here
        #expect(!player.isPlaying)
        model.userPreferencesDidChange(playsAnimatedImages: true)
        #expect(player.isPlaying)

        var visibility = PlaybackVisibility()
        #expect(visibility.wantsVideoPlayer)
        visibility.userAutoplaysVideo = false
        #expect(!visibility.wantsVideoPlayer)
        visibility.userAutoplaysVideo = true
        visibility.userPlaysAnimatedImages = false  // a clip follows video auto-play only
        #expect(visibility.wantsVideoPlayer && !visibility.shouldPlay)
    }

    @Test("a view follows scrolling only while its model has something to play")
    func scrollTrackingOnlyForPlayers() async throws {
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let still = ImageModel(pipeline: pipeline)
        let png = try TestImages.png(width: 64, height: 48, seed: 53)
        still.load(ImageRequest(source: .data(id: "still") { png }))
        #expect(await modelSettled(still))
        #expect(!still.tracksScrollVisibility)
        let animated = ImageModel(pipeline: pipeline)
        animated.clock = VirtualClock()
        animated.load(try ViewRuntimeTests.animatedRequest(id: "tracked"))
        #expect(await modelSettled(animated))
        #expect(animated.tracksScrollVisibility)
        animated.load(ImageRequest(source: .data(id: "still") { png }))  // a still replaces it
        #expect(!animated.tracksScrollVisibility)
    }

    @Test("a clip's player starts at its poster's frame and is given no audio track")
    func clipStartsAtPoster() {
        let playback = VideoPlayback(video: EncodedVideo(data: Data([0, 0, 0, 24]), format: .mp4, posterSeconds: 0.4))
        #expect(playback.startSeconds == 0.4)
        #expect(!playback.includesAudioTracks && playback.isMuted)
        #expect(EncodedVideo(data: Data(), format: .mp4, posterSeconds: -.infinity).posterSeconds == 0)
    }

    @Test("each view shows its own player only once its own first frame is ready at the poster's time, whatever another view's player does")
    func playerReadinessIsPerView() {
        var first = ClipPlayerSurface()
        var second = ClipPlayerSurface()
        first.playerMade(seeksToStart: true)
        first.layerReadinessDidChange(true)  // a frame, but from before the poster's time
        #expect(!first.plays && !first.showsPlayer)
        first.seekDidReachStart()
        #expect(first.plays && first.showsPlayer)
        // A second view of the same model: the playback is already playing, this layer is not ready.
        second.playerMade(seeksToStart: true)
        second.seekDidReachStart()
        #expect(second.plays && !second.showsPlayer, "a second view would show an empty (black) layer")
        second.layerReadinessDidChange(true)
        #expect(second.showsPlayer)
        // Let go: a late report of the old player changes nothing.
        second.playerLetGo()
        second.layerReadinessDidChange(true)
        second.seekDidReachStart()
        #expect(!second.plays && !second.showsPlayer)
        // A clip whose poster is its first frame needs no seek.
        second.playerMade(seeksToStart: false)
        #expect(second.plays && !second.showsPlayer)
    }

    // MARK: Pixels Core Animation draws in place

    @Test("what a processor makes has rows aligned for Core Animation: a still, and every frame of a GIF")
    func rowsAlignedForDisplay() async throws {
        // Odd widths: 4 bytes a pixel would leave 50 × 4 = 200-byte rows, not a multiple of 64.
        let frames = (0..<3).map { index in SampleImages.photo(width: 50, height: 30, seed: UInt64(60 + index)) }
        let gif = try await AnimatedGIFEncoder().encode(
            Animation(frames: frames, durations: [0.1, 0.1, 0.1], loopCount: 0),
            options: EncodeOptions())
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let animated = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "aligned-gif") { gif },
                processors: [.gaussianBlur(radius: 1)]))
        #expect(animated.bitmap.isAlignedForDisplay)
        let animation = try #require(animated.animation)
        for index in 0..<animation.frameCount {
            let frame = try await animation.frame(at: index)
            #expect(frame.isAlignedForDisplay, "frame \(index): \(frame.bytesPerRow) bytes a row")
        }
        let png = try TestImages.png(width: 333, height: 211, seed: 61)
        let processed = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "aligned-png") { png },
                targetSize: CGSize(width: 101, height: 77), contentMode: .fill,
                processors: [.gaussianBlur(radius: 2)]))
        #expect(processed.bitmap.isAlignedForDisplay, "\(processed.bitmap.bytesPerRow) bytes a row")
        let cropped = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "aligned-png") { png },
                processors: [.resize(width: 49, height: 49, contentMode: .fill, crop: true)]))
        #expect(cropped.bitmap.isAlignedForDisplay, "\(cropped.bitmap.bytesPerRow) bytes a row")
        // Aligning keeps every pixel.
        let tight = SampleImages.photo(width: 50, height: 30, seed: 62)
        let aligned = tight.alignedForDisplay()
        #expect(aligned.bytesPerRow == 256 && tight.bytesPerRow == 200)
        _ = expectSameBytes(aligned, tight)
    }

    // MARK: Accessibility

    @Test("an image view is an accessibility element once it shows an image, unless the app said otherwise")
    func accessibilityElement() {
        #expect(!ImageViewAccessibility.isElement(showsImage: false, explicit: nil))
        #expect(ImageViewAccessibility.isElement(showsImage: true, explicit: nil))
        #expect(!ImageViewAccessibility.isElement(showsImage: true, explicit: false))
        #expect(ImageViewAccessibility.isElement(showsImage: false, explicit: true))
    }
}
