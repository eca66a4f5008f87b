import Foundation
import Iris
import IrisSamples
import Testing
#if canImport(IrisUI)
import IrisUI  // the model types (AnimationPlayer, ImageModel...) once they live beside the views
#endif
import IrisTestSupport

// The Swift code of the DocC articles (Sources/*/*.docc) that runs on Linux, each block copied
// verbatim between the "Snippet" markers and run on real images. `DocumentationSnippetsCheck`
// fails when an article's block is not in this file or in Examples/IrisExamples.swift, so an
// article cannot show code that does not build. Only the public API is imported.

@Suite("Documentation snippets")
struct DocumentationSnippets {
    // MARK: Iris.md

    @Test("the landing page's load decodes a 1200×900 photo within 300×300")
    func landingPageLoad() async throws {
        let fixtures = try DocumentationFixtures()
        let photoURL = try fixtures.pngFile("photo.png", width: 1200, height: 900)
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        // Snippet: Iris.md
        let request = ImageRequest(url: photoURL, targetSize: CGSize(width: 300, height: 300))
        let image = try await pipeline.image(for: request)
        print(image.bitmap.width, image.bitmap.height, image.sourceSize)
        // End of snippet.
        #expect(image.bitmap.size == PixelSize(width: 300, height: 225))
        #expect(image.sourceSize == PixelSize(width: 1200, height: 900))
    }

    // MARK: ResponsiveImages.md

    @Test("the responsive pipeline asks the service for a ladder size of a URL shown at a target size")
    func responsivePipeline() async throws {
        // Snippet: ResponsiveImages.md
        let pipeline = ImagePipeline {
            $0.imageService = ImgproxyService(baseURL: URL(string: "https://images.example.com")!)
        }
        // End of snippet.
        let request = ImageRequest(
            url: URL(string: "https://cdn.example.com/a.jpg")!, targetSize: CGSize(width: 128, height: 128),
            contentMode: .fill, scale: 3)
        #expect(pipeline.dataKey(for: request).contains("fill 384×384 webp"))
    }

    // MARK: ThePipelineAndItsCaches.md

    @Test("the avatar request gives a circle cut from the 128×96 decode (64 pt at scale 2)")
    func avatarRequest() async throws {
        let fixtures = try DocumentationFixtures()
        let cachesURL = fixtures.directory
        let avatarURL = try fixtures.pngFile("avatar.png", width: 400, height: 300)
        // Snippet: ThePipelineAndItsCaches.md
        let pipeline = ImagePipeline { $0.dataCache = try? DataCache(directory: cachesURL.appendingPathComponent("Images")) }
        let avatar = ImageRequest(url: avatarURL, targetSize: CGSize(width: 64, height: 64), scale: 2, processors: [.circle])
        let image = try await pipeline.image(for: avatar)
        // 128×128 pixels at most, cut to a circle: image.bitmap is what is drawn, image.scale is 2.
        // End of snippet.
        #expect(pipeline.configuration.dataCache != nil)
        #expect(image.bitmap.size == PixelSize(width: 96, height: 96))
        #expect(image.bitmap.rgba(x: 0, y: 0).a == 0)  // outside the circle
        #expect(image.bitmap.rgba(x: 48, y: 48).a == 255)  // inside it
        #expect(image.scale == 2)
    }

    @Test("a task at high priority delivers the image (a file reports no download progress)")
    func taskWithProgress() async throws {
        let fixtures = try DocumentationFixtures()
        let photoURL = try fixtures.pngFile("photo.png", width: 1200, height: 900)
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        // Snippet: ThePipelineAndItsCaches.md
        let task = pipeline.task(for: ImageRequest(url: photoURL, targetSize: CGSize(width: 600, height: 400)))
        task.priority = .high
        for await progress in task.progress {
            print("\(progress.completed) of \(progress.total ?? -1) bytes")
        }
        let photo = try await task.image
        // End of snippet.
        #expect(task.priority == .high)
        #expect(photo.bitmap.size == PixelSize(width: 533, height: 400))
    }

    @Test("a .data source is loaded once for two requests of the same id, decoded at the target")
    func dataSource() async throws {
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        let store = DocumentationAssetStore()
        let assetID = 7
        // Snippet: ThePipelineAndItsCaches.md
        let thumbnail = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "asset-\(assetID)") { try await store.data(for: assetID) },
                targetSize: CGSize(width: 300, height: 300)))
        // End of snippet.
        #expect(thumbnail.bitmap.size == PixelSize(width: 300, height: 225))
        let again = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "asset-\(assetID)") { try await store.data(for: assetID) },
                targetSize: CGSize(width: 300, height: 300)))
        expectSameBytes(again.bitmap, thumbnail.bitmap)
        #expect(await store.loads == 1)  // the second was a memory hit
    }

    @Test("the cache front end finds the avatar in memory, and forgets it when emptied")
    func cacheAccess() async throws {
        let fixtures = try DocumentationFixtures()
        let avatarURL = try fixtures.pngFile("avatar.png", width: 400, height: 300)
        let pipeline = ImagePipeline { $0.dataCache = try? DataCache(directory: fixtures.directory.appendingPathComponent("Disk")) }
        let avatar = ImageRequest(url: avatarURL, targetSize: CGSize(width: 64, height: 64), scale: 2, processors: [.circle])
        let loaded = try await pipeline.image(for: avatar)
        #expect(pipeline.cache.contains(avatar, in: .memory))
        // Snippet: ThePipelineAndItsCaches.md
        if let image = pipeline.cache.image(for: avatar) {
            print("in memory:", image.bitmap.size)
        }
        if pipeline.cache.contains(avatar, in: .disk) {
            pipeline.cache.remove(avatar, from: .disk)
        }
        pipeline.cache.removeAll(from: .memory)
        // End of snippet.
        #expect(loaded.bitmap.size == PixelSize(width: 96, height: 96))
        #expect(pipeline.cache.image(for: avatar) == nil)
        #expect(!pipeline.cache.contains(avatar, in: .disk))  // a file never goes to the disk cache
    }

    @Test("the prefetcher fills the memory cache with every upcoming request")
    func prefetching() async throws {
        let fixtures = try DocumentationFixtures()
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        let upcoming = try (0..<4).map { index in
            ImageRequest(
                url: try fixtures.pngFile("row\(index).png", width: 320, height: 240, seed: UInt64(index + 1)),
                targetSize: CGSize(width: 80, height: 80))
        }
        #expect(upcoming.allSatisfy { !pipeline.cache.contains($0, in: .memory) })
        // Snippet: ThePipelineAndItsCaches.md
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .memoryCache)
        prefetcher.startPrefetching(with: upcoming)
        await prefetcher.waitUntilFinished()
        // End of snippet.
        #expect(prefetcher.activeCount == 0)
        #expect(upcoming.allSatisfy { pipeline.cache.contains($0, in: .memory) })
    }

    @Test("the error example catches empty data as ImageError.emptyData")
    func errorHandling() async throws {
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        // Snippet: ThePipelineAndItsCaches.md
        do {
            _ = try await pipeline.image(for: ImageRequest(source: .data(id: "empty") { Data() }))
        } catch {
            switch error {
            case .emptyData, .truncated, .decodingFailed: print("not a usable image: \(error)")
            case .overLimit(let violation): print("too big: \(violation)")
            case .cancelled: break
            default: print(error)
            }
        }
        // End of snippet.
        await #expect(throws: ImageError.emptyData) {
            _ = try await pipeline.image(for: ImageRequest(source: .data(id: "empty") { Data() }))
        }
    }

    // MARK: ThumbnailsOnLinux.md

    @Test("makeThumbnails writes one JPEG within 256×256 per input, two jobs at a time")
    func thumbnailBatch() async throws {
        let fixtures = try DocumentationFixtures()
        let inputs = try [(800, 600), (300, 900), (1000, 1000)].enumerated().map { index, size in
            try fixtures.pngFile("input\(index).png", width: size.0, height: size.1, seed: UInt64(index + 1))
        }
        let out = fixtures.directory.appendingPathComponent("thumbs", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try await makeThumbnails(of: inputs, in: out, jobs: 2)
        let expected = [PixelSize(width: 256, height: 192), PixelSize(width: 85, height: 256), PixelSize(width: 256, height: 256)]
        for (index, size) in expected.enumerated() {
            let data = try Data(contentsOf: out.appendingPathComponent("input\(index).jpg"))
            let thumbnail = try ImageDecoderRegistry.standard.decode(data)
            #expect(thumbnail.format == .jpeg)
            #expect(thumbnail.bitmap.size == size)
        }
    }

    @Test("the --crop request gives exactly 200×200 from a 640×360 photo")
    func squareCrop() async throws {
        let fixtures = try DocumentationFixtures()
        let photo = try fixtures.pngFile("wide.png", width: 640, height: 360)
        let pipeline = ImagePipeline { $0.memoryCache = nil }
        // Snippet: ThumbnailsOnLinux.md
        let square = ImageRequest(
            source: .file(photo), targetSize: CGSize(width: 200, height: 200), contentMode: .fill,
            processors: [.resize(width: 200, height: 200, contentMode: .fill, allowsUpscaling: true, crop: true)])
        // End of snippet.
        let image = try await pipeline.image(for: square)
        #expect(image.bitmap.size == PixelSize(width: 200, height: 200))
    }

    @Test("decoding directly shrinks while decoding, and the WebP written decodes again")
    func decodeDirectly() throws {
        let data = try TestImages.png(width: 1200, height: 800, seed: 1)
        // Snippet: ThumbnailsOnLinux.md
        let small = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: 300, height: 300, contentMode: .fit)))
        let webp = try ImageEncoders.encoder(for: .webp)!.encode(small.bitmap, options: EncodeOptions(quality: 80))
        // End of snippet.
        #expect(small.bitmap.size == PixelSize(width: 300, height: 200))
        let again = try ImageDecoderRegistry.standard.decode(webp)
        #expect(again.format == .webp)
        #expect(again.bitmap.size == small.bitmap.size)
    }

    @Test("the uploads pipeline refuses a GIF whose screen claims 64 MP, a size the default limits allow")
    func stricterLimits() async throws {
        // Snippet: ThumbnailsOnLinux.md
        let uploads = ImagePipeline {
            $0.limits = DecodingLimits(maxPixels: 50_000_000)
            $0.maxDataBytes = 20 * 1024 * 1024
        }
        // End of snippet.
        let claim = DocumentationFixtures.gifClaiming(width: 8000, height: 8000)
        let request = ImageRequest(source: .data(id: "claim") { claim }, targetSize: CGSize(width: 100, height: 100))
        await #expect(throws: ImageError.overLimit(.pixels(width: 8000, height: 8000, limit: 50_000_000))) {
            _ = try await uploads.image(for: request)
        }
        // The file is sound, and its 64 MP are within the default 256 MP: the limit refused it.
        // (Not decoded here: streaming 64 MP through the resampler takes minutes in a debug build.)
        let header = try ImageDecoderRegistry.standard.header(of: claim)
        #expect(header.format == .gif && header.width == 8000 && header.height == 8000)
        #expect(throws: Never.self) { try DecodingLimits.default.check(width: 8000, height: 8000, format: .gif) }
        #expect(uploads.configuration.maxDataBytes == 20 * 1024 * 1024)
    }

    // MARK: Animations.md (IrisUI)

    @Test("the frames of a 3-frame animated WebP, each at the 120×120 target")
    func animationFrames() async throws {
        let fixtures = try DocumentationFixtures()
        let stickerURL = try await fixtures.animatedWebPFile("sticker.webp", width: 240, height: 160, frames: 3)
        let pipeline = ImagePipeline { $0.memoryCache = MemoryCache() }
        // Snippet: Animations.md
        let sticker = try await pipeline.image(for: ImageRequest(url: stickerURL, targetSize: CGSize(width: 120, height: 120)))
        if let animation = sticker.animation {
            print(animation.frameCount, "frames, loops:", animation.loopCount)
            for index in 0..<animation.frameCount {
                let frame = try await animation.frame(at: index)
                print(index, frame.width, frame.height, animation.displayDuration(at: index))
            }
        }
        // End of snippet.
        let animation = try #require(sticker.animation)
        #expect(animation.frameCount == 3)
        #expect(animation.frameSize == PixelSize(width: 120, height: 80))
        #expect(animation.displayDuration(at: 2) == 0.1)
        let last = try await animation.frame(at: 2)
        #expect(last.size == PixelSize(width: 120, height: 80))
    }

    @Test("an AnimationPlayer plays from the first frame")
    @MainActor
    func animationPlayer() async throws {
        let fixtures = try DocumentationFixtures()
        let stickerURL = try await fixtures.animatedWebPFile("sticker.webp", width: 64, height: 64, frames: 2)
        let sticker = try await ImagePipeline { $0.memoryCache = nil }.image(for: ImageRequest(url: stickerURL))
        // Snippet: Animations.md
        let player = sticker.animation.map { AnimationPlayer(animation: $0, firstFrame: sticker.bitmap) }
        player?.play()
        // Draw player?.currentFrame ?? sticker.bitmap; observation tells you when it changes.
        // End of snippet.
        let playing = try #require(player)
        #expect(playing.isPlaying)
        #expect(playing.animation.frameCount == 2)
        expectSameBytes(playing.currentFrame, sticker.bitmap)
        playing.pause()
        #expect(!playing.isPlaying)
    }

    @Test("two frames in memory encode to an animated WebP of two frames")
    func writingAnimations() async throws {
        let eyesOpen = try ImageDecoderRegistry.standard.decode(TestImages.png(width: 80, height: 60, seed: 3))
        let eyesShut = try ImageDecoderRegistry.standard.decode(TestImages.png(width: 80, height: 60, seed: 4))
        // Snippet: Animations.md
        let blink = Animation(frames: [eyesOpen.bitmap, eyesShut.bitmap], durations: [2.0, 0.15])
        let webp = try await ImageEncoders.animationEncoder(for: .webp)!.encode(blink, options: EncodeOptions(quality: 80))
        // End of snippet.
        let decoded = try ImageDecoderRegistry.standard.decode(webp)
        let animation = try #require(decoded.animation)
        #expect(animation.frameCount == 2)
        #expect(abs(animation.duration(at: 0) - 2.0) < 0.001)
        #expect(abs(animation.duration(at: 1) - 0.15) < 0.001)
    }
}

// Snippet: ThumbnailsOnLinux.md
func makeThumbnails(of files: [URL], in directory: URL, jobs: Int) async throws {
    // Each file is read once: no memory cache, no disk cache, no partial downloads.
    let pipeline = ImagePipeline(
        configuration: .init(
            dataCache: nil, memoryCache: nil,
            maxConcurrentDecodes: jobs, maxConcurrentProcessing: jobs, resumableData: nil))
    let jpeg = ImageEncoders.encoder(for: .jpeg)!
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, file) in files.enumerated() {
            if index >= jobs { try await group.next() }  // at most `jobs` files at once
            group.addTask {
                let request = ImageRequest(source: .file(file), targetSize: CGSize(width: 256, height: 256))
                let image = try await pipeline.image(for: request)
                let opaque = image.bitmap.flattened(over: RGBA(r: 255, g: 255, b: 255))
                let data = try jpeg.encode(opaque, options: EncodeOptions(quality: 85))
                let name = file.deletingPathExtension().lastPathComponent + ".jpg"
                try data.write(to: directory.appendingPathComponent(name), options: .atomic)
            }
        }
        try await group.waitForAll()
    }
}
// End of snippet.
