import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// What views hold in memory, and give back: the decisions behind the views, made by the model on Linux.
@MainActor
@Suite("What views hold in memory, and give back")
struct ViewMemoryTests {
    @Test("a grid prefetched with the views' own requests: every cell's load is a memory hit, no second decode")
    func prefetchWarmsTheViews() async throws {
        let decodes = PipelineCounter()
        let pipeline = ViewTestFixtures.countingPipeline(decodes)
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
}
