import Foundation
import IrisSamples
import Observation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// The decisions behind a real app's first week with the views (issue "sharp in lists and fills,
/// trimmed under memory pressure, heard by VoiceOver"), each proven on the model the views
/// forward to, fed the slot sequences SwiftUI and UIKit report.
@MainActor
@Suite("View decisions")
struct ViewDecisionTests {
    // MARK: 1. A List row as tall as its spinner

    @Test("List row with a spinner: the 350×36 pt slot, then the grown row, decode once; a row made again is a memory hit")
    func listRowWithSpinner() async throws {
        let photo = try TestImages.jpeg(width: 1600, height: 1200, seed: 41, quality: 80)
        let decodes = PipelineCounter()
        let calls = PipelineCounter()
        let pipeline = ViewRuntimeTests.countingPipeline(decodes)
        let request = ImageRequest(
            source: .data(id: "post-1") {
                calls.increment()
                return photo
            })

        let row = ImageModel(pipeline: pipeline)
        row.viewLayoutDidChange(slot: ImageSlot(width: 350, height: 36), displayScale: 3)  // as tall as ProgressView
        row.loadForView(request)
        #expect(await modelSettled(row))
        let first = try #require(row.phase.loadedImage)
        // Covered, not fitted: 1280×112 px covers a 4:3 photo at 1280×960, enough for the grown row.
        #expect(first.bitmap.size == PixelSize(width: 1280, height: 960))
        row.viewLayoutDidChange(slot: ImageSlot(width: 350, height: 262.5), displayScale: 3)  // the row grows to the image
        #expect(row.phase.kind == .success)
        #expect(decodes.count == 1 && calls.count == 1 && row.resultCount == 1)  // one decode, one completion

        // The row scrolled away and made again (a new view identity, laid out at its final height).
        let again = ImageModel(pipeline: pipeline)
        again.viewLayoutDidChange(slot: ImageSlot(width: 350, height: 262.5), displayScale: 3)
        again.loadForView(request)
        #expect(again.phase.kind == .success)  // shown before returning
        #expect(again.animatesPhaseChange == false)
        #expect(decodes.count == 1 && calls.count == 1)
    }

    // MARK: 2. scaledToFill without a content-mode modifier

    @Test(
        "fill in a 120 pt square at 3x, no content mode given: decoded to cover 360×360 px, 4:3 and 16:9",
        arguments: [(1600, 1200), (1920, 1080)])
    func fillWithoutModifier(width: Int, height: Int) async throws {
        let photo = try TestImages.jpeg(width: width, height: height, seed: 42, quality: 80)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.viewLayoutDidChange(slot: ImageSlot(width: 120, height: 120), displayScale: 3)
        model.loadForView(ImageRequest(source: .data(id: "fill-\(width)") { photo }))
        #expect(await modelSettled(model))
        let image = try #require(model.phase.loadedImage)
        #expect(image.bitmap.width >= 360 && image.bitmap.height >= 360, "\(image.bitmap.size) does not cover 360×360")
        // A view that says .fit (UIKit's default imageContentMode) fits instead.
        let fitted = ImageModel(pipeline: model.pipeline)
        fitted.slotContentMode = .fit
        fitted.viewLayoutDidChange(slot: ImageSlot(width: 120, height: 120), displayScale: 3)
        fitted.loadForView(ImageRequest(source: .data(id: "fill-\(width)") { photo }))
        #expect(await modelSettled(fitted))
        let fit = try #require(fitted.phase.loadedImage)
        #expect(max(fit.bitmap.width, fit.bitmap.height) == 384)
    }

    // MARK: 3. Content without resizable() keeps its natural size

    @Test("a 100 px icon at scale 1 in a List row at 3x is 100 pt; a 2400 px photo in a 361 pt column is 2400 pt")
    func naturalPointSize() async throws {
        let icon = try TestImages.png(width: 100, height: 100, seed: 43)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let row = ImageModel(pipeline: pipeline)
        row.viewLayoutDidChange(slot: ImageSlot(width: 350, height: 44), displayScale: 3)
        row.loadForView(ImageRequest(source: .data(id: "icon") { icon }, scale: 1))
        #expect(await modelSettled(row))
        let shown = try #require(row.phase.loadedImage)
        #expect(shown.bitmap.size == PixelSize(width: 100, height: 100) && shown.scale == 1)  // 100 pt, as AsyncImage

        let photo = try TestImages.jpeg(width: 2400, height: 1800, seed: 44, quality: 80)
        let column = ImageModel(pipeline: pipeline)
        column.viewLayoutDidChange(slot: ImageSlot(width: 361, height: nil), displayScale: 3)
        column.loadForView(ImageRequest(source: .data(id: "column") { photo }, scale: 1))
        #expect(await modelSettled(column))
        let image = try #require(column.phase.loadedImage)
        #expect(image.bitmap.width == 1280)  // shrunk for the column
        #expect(abs(Double(image.bitmap.width) / image.scale - 2400) < 0.5)  // still 2400 pt wide

        // A request given its own target size keeps its own scale.
        let sized = ImageModel(pipeline: pipeline)
        sized.load(ImageRequest(source: .data(id: "icon") { icon }, targetSize: CGSize(width: 20, height: 20), scale: 2))
        #expect(await modelSettled(sized))
        #expect(sized.phase.loadedImage?.scale == 2)
    }

    // MARK: 4, 9. A slot that shrinks, then grows; transient layouts never pin a large decode

    @Test("a transient open layout, then the real 100×100 slot: one decode, at the slot's size")
    func transientOpenSlotDoesNotPin() async throws {
        let photo = try TestImages.jpeg(width: 1600, height: 1200, seed: 45, quality: 80)
        let decodes = PipelineCounter()
        let gate = PipelineGate()
        let model = ImageModel(pipeline: ViewRuntimeTests.countingPipeline(decodes))
        model.loadForView(
            ImageRequest(
                source: .data(id: "transient") {
                    await gate.wait()
                    return photo
                }))
        model.viewLayoutDidChange(slot: ImageSlot(measured: .zero), displayScale: 2)  // not laid out yet
        #expect((model.request?.targetSize?.width).map { Double($0) } == Double(ViewTargetSize.openSidePixels))
        model.viewLayoutDidChange(slot: ImageSlot(width: 100, height: 100), displayScale: 2)
        #expect(model.request?.targetSize == CGSize(width: 112, height: 112))
        gate.open()
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 299, height: 224))  // covers 224×224
        #expect(decodes.count == 1)
    }

    @Test("shrinking a little keeps the image; to less than half it decodes smaller; growing decodes larger")
    func shrinkThenGrow() async throws {
        let photo = try TestImages.jpeg(width: 1600, height: 1200, seed: 46, quality: 80)
        let decodes = PipelineCounter()
        let model = ImageModel(pipeline: ViewRuntimeTests.countingPipeline(decodes))
        model.viewLayoutDidChange(slot: ImageSlot(width: 300, height: 300), displayScale: 2)
        model.loadForView(ImageRequest(source: .data(id: "resize") { photo }))
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 853, height: 640))  // covers 640×640
        model.viewLayoutDidChange(slot: ImageSlot(width: 250, height: 250), displayScale: 2)  // a little smaller
        #expect(model.phase.kind == .success && decodes.count == 1)
        model.viewLayoutDidChange(slot: ImageSlot(width: 100, height: 100), displayScale: 2)  // under half
        #expect(await modelEventually { model.phase.kind == .success && model.phase.loadedImage?.bitmap.height == 224 })
        #expect(decodes.count == 2)
        model.viewLayoutDidChange(slot: ImageSlot(width: 300, height: 300), displayScale: 2)  // grows again
        #expect(await modelEventually { model.phase.kind == .success && model.phase.loadedImage?.bitmap.height == 640 })
        #expect(decodes.count == 2)  // 640 px is in memory
    }

    @Test("a display scale of 0 (a view in no window) shows nothing of the previous row; the next layout loads")
    func zeroDisplayScale() async throws {
        let a = try TestImages.png(width: 64, height: 64, seed: 47)
        let b = try TestImages.png(width: 64, height: 32, seed: 48)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.viewLayoutDidChange(slot: ImageSlot(width: 32, height: 32), displayScale: 2)
        model.loadForView(ImageRequest(source: .data(id: "a") { a }))
        #expect(await modelSettled(model))
        model.viewLayoutDidChange(slot: ImageSlot(width: 32, height: 32), displayScale: 0)
        #expect(model.phase.kind == .success)  // the same source stays
        model.loadForView(ImageRequest(source: .data(id: "b") { b }))  // the cell is reused
        #expect(model.phase.kind == .empty)
        model.viewLayoutDidChange(slot: ImageSlot(width: 32, height: 32), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 64, height: 32))
    }

    // MARK: 4. Memory pressure

    @Test(
        "memory pressure: a view scrolled off screen gives its pixels back; on screen they stay; back on screen it shows them again from disk, no download"
    )
    func offScreenViewsGiveBackUnderPressure() async throws {
        let png = try TestImages.png(width: 320, height: 240, seed: 77)
        try await withTestServer { server in
            for path in ["/gone.png", "/shown.png"] {
                server.serve(
                    path, TestHTTPRoute(body: png, contentType: "image/png", headers: [("Cache-Control", "max-age=3600")]))
            }
            let cache = MemoryCache()
            let monitor = MemoryPressureMonitor(listensToSystem: false)
            monitor.register(cache)
            let (pipeline, _) = try ImagePipeline.launched(
                diskCache: temporaryCacheFolder("pressure"), clock: ManualWallClock(), memoryCache: cache)
            @MainActor func shownModel(_ path: String) async throws -> ImageModel {
                let model = ImageModel(pipeline: pipeline)
                model.memoryPressureMonitor = monitor
                model.viewDidAppear()
                model.load(ImageRequest(url: server.url(path), targetSize: CGSize(width: 80, height: 60), scale: 2))
                #expect(await modelSettled(model))
                return model
            }
            let gone = try await shownModel("/gone.png")
            let shown = try await shownModel("/shown.png")
            weak let goneStorage = gone.phase.loadedImage?.bitmap.storage
            #expect(goneStorage != nil && cache.count == 2)

            gone.viewDidDisappear()  // scrolled away; a lazy container keeps its state
            monitor.report(.warning)  // the models hear it on the main actor, then the caches trim again
            #expect(await modelEventually { gone.phase.kind == .empty })
            #expect(goneStorage == nil, "the off-screen view's pixels are still held")
            #expect(shown.phase.kind == .success)
            #expect(cache.count == 1)

            gone.viewDidAppear()  // back: from the disk cache, with no request to the origin
            #expect(await modelSettled(gone))
            #expect(gone.phase.loadedImage?.bitmap.size == PixelSize(width: 160, height: 120))
            #expect(server.requestCount("/gone.png") == 1)
        }
    }

    @Test("memory pressure: a warning drops what only the cache holds, shown images stay; background trims to a tenth")
    func memoryPressureTrims() throws {
        let cache = MemoryCache(costLimit: 100 * 64 * 64 * 4, countLimit: 100)
        let monitor = MemoryPressureMonitor(listensToSystem: false)
        monitor.register(cache)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: cache))
        func request(_ index: Int) -> ImageRequest { ImageRequest(source: .data(id: "p\(index)") { Data() }) }
        func image(_ seed: UInt64) -> LoadedImage {
            LoadedImage(
                bitmap: SampleImages.photo(width: 64, height: 64, seed: seed, format: .rgba8), format: .png,
                sourceSize: PixelSize(width: 64, height: 64))
        }
        var shown: [LoadedImage] = []
        for index in 0..<20 {
            let made = image(UInt64(index))
            pipeline.cache.store(made, for: request(index))
            if index % 5 == 0 { shown.append(made) }  // four views show one each
        }
        #expect(cache.count == 20)
        monitor.report(.warning)
        #expect(cache.count == 4)
        #expect((0..<20).allSatisfy { pipeline.cache.contains(request($0), in: .memory) == ($0 % 5 == 0) })

        for index in 20..<60 { pipeline.cache.store(image(UInt64(index)), for: request(index)) }
        monitor.report(.background)
        #expect(cache.totalCost <= cache.costLimit / 10)
        #expect((0..<20).allSatisfy { $0 % 5 != 0 || pipeline.cache.contains(request($0), in: .memory) })
        #expect(pipeline.cache.contains(request(59), in: .memory))  // the most recent stay first
        shown.removeAll()
        monitor.report(.critical)
        #expect(cache.count == 0)

        // Animated images: their frames share the still image's pixels; what tells is the animation.
        func animated(_ seed: Int) -> LoadedImage {
            let frames = AnimationPlayerTests.animation([0.1, 0.1])
            var image = image(UInt64(seed))
            image.animation = frames
            return image
        }
        let playing = animated(100)
        pipeline.cache.store(playing, for: request(100))
        pipeline.cache.store(animated(101), for: request(101))
        withExtendedLifetime(playing) {
            monitor.report(.warning)
            #expect(pipeline.cache.contains(request(100), in: .memory) && !pipeline.cache.contains(request(101), in: .memory))
        }
    }

    // MARK: 7. Data sources without a cache key

    @Test("equal Hashable ids at one place share the image (a row made again: no second call); other places never do")
    func placeScopedDataKeys() async throws {
        let png = try TestImages.png(width: 16, height: 16, seed: 49)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let calls = PipelineCounter()
        let rowPlace = ViewPlace(fileID: "App/Feed.swift", line: 12, column: 9)
        let target = CGSize(width: 16, height: 16)
        func show(_ id: Int, at place: ViewPlace) -> ImageModel {
            let model = ImageModel(pipeline: pipeline)
            model.loadForView(
                model.dataRequest(id: id, targetSize: target, place: place) {
                    calls.increment()
                    return png
                })
            return model
        }
        let first = show(7, at: rowPlace)
        #expect(await modelSettled(first))
        let again = show(7, at: rowPlace)  // the row made again
        #expect(again.phase.kind == .success && calls.count == 1)
        let author = show(7, at: ViewPlace(fileID: "App/Author.swift", line: 3, column: 5))
        #expect(await modelSettled(author))
        #expect(calls.count == 2)  // another place: its own image
    }

    @Test("an Equatable-only id stays private, and its cached image goes when the id changes and when the view goes")
    func privateKeysAreRemoved() async throws {
        struct Asset: Equatable, Sendable { let name: String }
        let png = try TestImages.png(width: 16, height: 16, seed: 50)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let cache = try #require(pipeline.configuration.memoryCache as? MemoryCache)
        let place = ViewPlace(fileID: "App/Grid.swift", line: 1, column: 1)
        var model: ImageModel? = ImageModel(pipeline: pipeline)
        model?.viewLayoutDidChange(slot: ImageSlot(width: 8, height: 8), displayScale: 2)
        model?.loadForView(model?.dataRequest(id: Asset(name: "a"), place: place) { png })
        #expect(await modelSettled(try #require(model)))
        #expect(cache.count == 1)
        model?.loadForView(model?.dataRequest(id: Asset(name: "b"), place: place) { png })
        #expect(await modelSettled(try #require(model)))
        #expect(cache.count == 1)  // a's image is gone, b's is there
        model = nil
        #expect(cache.count == 0)
    }

    // MARK: 8. One visibility policy for every view form

    @Test("an owned animation pauses when scrolled out of its scroll view or its window is covered")
    func ownerVisibility() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewRuntimeTests.animatedRequest(id: "owned-visibility"))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        model.viewDidAppear()
        #expect(player.isPlaying)
        model.viewVisibilityDidChange(scrollViewport: false)  // scrolled out, window still set
        #expect(!player.isPlaying)
        #expect(await modelEventually { clock.sleeperCount == 0 })
        model.viewVisibilityDidChange(scrollViewport: true)
        #expect(player.isPlaying)
        model.viewVisibilityDidChange(window: false)  // a covered window (macOS)
        #expect(!player.isPlaying)
        model.viewVisibilityDidChange(window: true)
        #expect(player.isPlaying)
    }

    @Test("a shared model plays while any of its views can see it, animating; not once they are gone or hidden")
    func sharedModelVisibility() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewRuntimeTests.animatedRequest(id: "shared-visibility"))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(player.isPlaying)  // driven by code, no view yet
        let list = ImageViewer()
        let detail = ImageViewer()
        model.viewer(list, onScreen: true)
        model.viewer(detail, onScreen: true, animates: false)  // .animatesFrames(false)
        #expect(player.isPlaying)
        model.viewer(list, scrollViewport: false)
        #expect(!player.isPlaying)  // the only animating view is out of sight
        model.viewer(detail, animates: true)
        #expect(player.isPlaying)
        model.viewerDidLeave(detail)
        model.viewer(list, scrollViewport: true)
        model.viewer(list, window: false)
        #expect(!player.isPlaying)
        model.viewerDidLeave(list)
        #expect(!player.isPlaying)  // no view left: nobody watches
        model.viewer(list, onScreen: true)
        #expect(player.isPlaying)
        model.appDidChange(isActive: false)
        #expect(!player.isPlaying)
        #expect(await modelEventually { clock.sleeperCount == 0 })
    }

    @Test("a UIKit/AppKit view is visible only inside every clipping ancestor and its window")
    func visibleArea() {
        let window = CGRect(x: 0, y: 0, width: 390, height: 844)
        let scrollView = CGRect(x: 0, y: 100, width: 390, height: 300)
        #expect(VisibleArea.isVisible(frame: CGRect(x: 10, y: 150, width: 100, height: 100), clips: [window, scrollView]))
        #expect(!VisibleArea.isVisible(frame: CGRect(x: 10, y: 500, width: 100, height: 100), clips: [window, scrollView]))
        #expect(VisibleArea.isVisible(frame: CGRect(x: 10, y: 399, width: 100, height: 100), clips: [window, scrollView]))
        #expect(!VisibleArea.isVisible(frame: CGRect(x: 10, y: 400, width: 100, height: 100), clips: [window, scrollView]))
        #expect(!VisibleArea.isVisible(frame: CGRect(x: 10, y: 150, width: 0, height: 100), clips: [window]))
    }

    // MARK: 9. Smaller

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

    @Test("a bitmap that writes after an image was made of it drops the shared memo: the old pixels are freed")
    func writingCopyDropsRenderingMemo() {
        final class RenderedImage: Sendable {
            let storage: BitmapStorage
            init(_ storage: BitmapStorage) { self.storage = storage }
        }
        var bitmap = Bitmap(width: 32, height: 32, format: .rgba8)
        weak var oldStorage: BitmapStorage?
        do {
            let storage = bitmap.storage
            oldStorage = storage
            _ = bitmap.renderingMemo.image(for: storage, in: bitmap.colorSpace) { RenderedImage(storage) }
        }
        #expect(bitmap.renderingMemo.holdsImage)
        bitmap.setRGBA(RGBA(r: 1, g: 2, b: 3, a: 255), x: 0, y: 0)  // the image holds the storage: copies
        #expect(!bitmap.renderingMemo.holdsImage)
        #expect(oldStorage == nil)  // nothing keeps the old pixels
        var copy = bitmap
        let sharedBeforeWriting = !copy.isOnlyCopy()
        #expect(sharedBeforeWriting)
        copy.setRGBA(RGBA(r: 9, g: 9, b: 9, a: 255), x: 1, y: 1)
        let bothAlone = copy.isOnlyCopy() && bitmap.isOnlyCopy()
        #expect(bothAlone)
    }
}
