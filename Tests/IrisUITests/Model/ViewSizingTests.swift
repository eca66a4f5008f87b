import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// Decode size follows the view's slot: the decisions behind the views, made by the model on Linux.
@MainActor
@Suite("Decode size follows the view's slot")
struct ViewSizingTests {
    @Test(
        "size buckets round up by an eighth of the next power of two, 16 px at least",
        arguments: [
            (1, 16), (16, 16), (17, 32), (100, 112), (300, 320), (320, 320), (321, 384),
            (1000, 1024), (1025, 1280), (4000, 4096),
        ])
    func buckets(pixels: Int, bucket: Int) {
        #expect(ViewSizing.bucket(pixels) == bucket)
    }

    @Test("a bucket is never smaller than the view, and larger by less than a quarter (or 16 px)")
    func bucketBounds() {
        for pixels in 1...5000 {
            let bucket = ViewSizing.bucket(pixels)
            #expect(bucket >= pixels && bucket - pixels < max(16, (pixels + 3) / 4), "\(pixels) → \(bucket)")
        }
    }

    @Test("a closed slot × scale, rounded up, then bucketed, in the request's content mode")
    func closedSlot() {
        let target = ViewSizing.decodeTarget(
            for: ImageSlot(width: 100, height: 50), displayScale: 3, imageScale: 1,
            contentMode: .fill)
        #expect(target == .init(pixels: PixelSize(width: 320, height: 160), contentMode: .fill, scale: 3))
        let odd = ViewSizing.decodeTarget(
            for: ImageSlot(width: 33.4, height: 33.4), displayScale: 2, imageScale: 1,
            contentMode: .fit)
        #expect(odd?.pixels == PixelSize(width: 80, height: 80))  // 66.8 → 67 → 80
    }

    @Test("the tracker keeps a larger decode, reloads for more pixels or for half as many, re-keys the same pixels")
    func trackerDecisions() {
        func target(_ width: Int, _ height: Int, _ mode: ContentMode = .fill) -> ViewSizing.Target {
            .init(pixels: PixelSize(width: width, height: height), contentMode: mode, scale: 3)
        }
        var tracker = ViewSizing()
        #expect(tracker.decision(for: target(1280, 112), dataKey: "a", shown: nil) == .load(target(1280, 112)))
        // Loading, source unknown: boxes compared.
        #expect(tracker.decision(for: target(1152, 112), dataKey: "a", shown: nil) == .keep)
        #expect(tracker.decision(for: target(1280, 896), dataKey: "a", shown: nil) == .load(target(1280, 896)))
        // Shown, 1600×1200 source: both boxes cover it with 1280×960, so the new box re-keys.
        var shown = ViewSizing()
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

    @Test("the target comes from the slot: closed, one side open (a scroll axis), both open (natural size)")
    func slotTargets() {
        let closed = ViewSizing.decodeTarget(
            for: ImageSlot(width: 50, height: 50), displayScale: 2, imageScale: 1,
            contentMode: .fill)
        #expect(closed == .init(pixels: PixelSize(width: 112, height: 112), contentMode: .fill, scale: 2))
        let column = ViewSizing.decodeTarget(
            for: ImageSlot(width: 100, height: .infinity), displayScale: 2,
            imageScale: 1, contentMode: .fill)
        #expect(column == .init(pixels: PixelSize(width: 224, height: ViewSizing.openSidePixels), contentMode: .fit, scale: 2))
        let open = ViewSizing.decodeTarget(
            for: ImageSlot(measured: .zero), displayScale: 3, imageScale: 1.5,
            contentMode: .fill)
        #expect(open == .init(pixels: PixelSize(width: 4096, height: 4096), contentMode: .fit, scale: 1.5))
        #expect(ImageSlot(width: 0, height: -3) == .open && ImageSlot(width: .nan, height: 10).width == nil)
    }

    @Test("List row with a spinner: the 350×36 pt slot, then the grown row, decode once; a row made again is a memory hit")
    func listRowWithSpinner() async throws {
        let photo = try TestImages.jpeg(width: 1600, height: 1200, seed: 41, quality: 80)
        let decodes = PipelineCounter()
        let calls = PipelineCounter()
        let pipeline = ViewTestFixtures.countingPipeline(decodes)
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

    @Test("a transient open layout, then the real 100×100 slot: one decode, at the slot's size")
    func transientOpenSlotDoesNotPin() async throws {
        let photo = try TestImages.jpeg(width: 1600, height: 1200, seed: 45, quality: 80)
        let decodes = PipelineCounter()
        let gate = PipelineGate()
        let model = ImageModel(pipeline: ViewTestFixtures.countingPipeline(decodes))
        model.loadForView(
            ImageRequest(
                source: .data(id: "transient") {
                    await gate.wait()
                    return photo
                }))
        model.viewLayoutDidChange(slot: ImageSlot(measured: .zero), displayScale: 2)  // not laid out yet
        #expect((model.request?.targetSize?.width).map { Double($0) } == Double(ViewSizing.openSidePixels))
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
        let model = ImageModel(pipeline: ViewTestFixtures.countingPipeline(decodes))
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
        let model = ImageModel(pipeline: ViewTestFixtures.countingPipeline(decodes))
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
        let model = ImageModel(pipeline: ViewTestFixtures.countingPipeline(decodes))
        model.loadForView(ImageRequest(source: .data(id: "scale") { photo }))
        model.viewLayoutDidChange(slot: ImageSlot(width: 50, height: 50), displayScale: 2)
        #expect(await modelSettled(model))
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 112, height: 112))
        model.viewLayoutDidChange(slot: ImageSlot(width: 50, height: 50), displayScale: 3)
        #expect(await modelEventually { model.phase.kind == .success && model.phase.loadedImage?.bitmap.width == 160 })
        #expect(model.phase.loadedImage?.bitmap.size == PixelSize(width: 160, height: 160))
        #expect(decodes.count == 2)
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
}
