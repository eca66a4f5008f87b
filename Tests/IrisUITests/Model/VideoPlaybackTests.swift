#if os(Linux)
import Foundation
import Testing
import IrisTestSupport
@testable import Iris
@testable import IrisUI

/// The decisions of a video shown by a view (``VideoPlayback``), driven on Linux with a real MP4
/// made by Debian's ffmpeg and loaded through the pipeline (FFmpeg makes its poster): the views'
/// AVFoundation player on Apple platforms only follows these.
@MainActor
@Suite("Video playback decisions", .enabled(if: TestClip.url != nil, "needs ffmpeg with libx264 (scripts/install-deps)"))
struct VideoPlaybackTests {
    static var clip: URL? { TestClip.url }

    /// A model that loaded the clip through a real pipeline, and the clip's bytes.
    static func loadedModel(targetSize: CGSize? = nil) async throws -> (ImageModel, Data) {
        let url = try #require(clip)
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.playback.videoPlayerSlots = VideoPlayerSlots(capacity: 8)  // not the app-wide slots other tests share
        model.load(ImageRequest(source: .file(url), targetSize: targetSize))
        #expect(await modelSettled(model))
        return (model, try Data(contentsOf: url))
    }

    @Test("the pipeline gives a video's poster with the clip's bytes kept beside it, counted once")
    func pipelineKeepsTheClip() async throws {
        let url = try #require(Self.clip)
        let bytes = try Data(contentsOf: url)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let image = try await pipeline.image(for: ImageRequest(source: .data(id: "clip", load: { bytes })))
        let video = try #require(image.video)
        #expect(video.format == .mp4)
        expectSameBytes(video.data, bytes, "the clip's bytes")
        #expect(image.bitmap.size == PixelSize(width: 160, height: 120))  // the poster
        #expect(!VideoPoster.isBlack(image.bitmap))
        // The lazy animation (Linux's frames) already counts the file: the clip adds nothing.
        let animation = try #require(image.animation)
        #expect(image.cost == image.bitmap.cost + animation.costLimit)
        // A still with its clip and the same bytes kept counts them once.
        let still = LoadedImage(
            bitmap: image.bitmap, format: .mp4, sourceSize: image.sourceSize, data: bytes,
            video: EncodedVideo(data: bytes, format: .mp4))
        #expect(still.cost == image.bitmap.cost + bytes.count)
    }

    @Test("a loaded video shows its poster first, plays muted and looping as a clip (not as frames), and shows the player once ready")
    func posterThenPlayer() async throws {
        let (model, bytes) = try await Self.loadedModel()
        let playback = try #require(model.videoPlayback)
        let poster = try #require(model.phase.loadedImage)
        expectSameBytes(playback.video.data, bytes, "the played clip's bytes")
        #expect(model.animationPlayer == nil)
        #expect(playback.isMuted && playback.loops)
        #expect(playback.wantsPlayer)  // no view has reported: plays, as animations do
        #expect(playback.state == .poster)
        #expect(model.displayedPhase.loadedImage?.bitmap.sharesStorage(with: poster.bitmap) == true)

        playback.playerDidBecomeReady()
        #expect(playback.state == .playing)
    }

    @Test(
        "the player is let go whenever the clip cannot be seen (covered, scrolled away, in the background, off screen, switched off) and made again when it can"
    )
    func followsTheVisibilityPolicy() async throws {
        let (model, _) = try await Self.loadedModel()
        model.viewDidAppear()
        let playback = try #require(model.videoPlayback)
        playback.playerDidBecomeReady()
        #expect(playback.state == .playing)

        let goneAndBack: [(String, () -> Void, () -> Void)] = [
            ("window covered", { model.viewVisibilityDidChange(window: false) }, { model.viewVisibilityDidChange(window: true) }),
            (
                "scrolled away", { model.viewVisibilityDidChange(scrollViewport: false) },
                { model.viewVisibilityDidChange(scrollViewport: true) }
            ),
            ("background", { model.appDidChange(isActive: false) }, { model.appDidChange(isActive: true) }),
            ("off screen", { model.viewDidDisappear() }, { model.viewDidAppear() }),
            ("switched off", { model.playsAnimations = false }, { model.playsAnimations = true }),
        ]
        for (situation, leave, come) in goneAndBack {
            leave()
            #expect(!playback.wantsPlayer && playback.state == .poster, "\(situation): the player stays")
            playback.playerDidBecomeReady()  // a late report of the player let go
            #expect(playback.state == .poster, "\(situation)")
            come()
            #expect(playback.wantsPlayer && playback.state == .poster, "\(situation): a new player shows the poster until ready")
            playback.playerDidBecomeReady()
            #expect(playback.state == .playing, "\(situation)")
        }
    }

    @Test("a sharing view that can see the clip keeps its player after the owner left; one that only shows the poster does not")
    func sharingViews() async throws {
        let (model, _) = try await Self.loadedModel()
        let playback = try #require(model.videoPlayback)
        let viewer = ImageViewer()
        model.viewDidAppear()
        model.viewer(viewer, onScreen: true, animates: true)
        model.viewDidDisappear()
        #expect(playback.wantsPlayer)
        model.viewer(viewer, animates: false)
        #expect(!playback.wantsPlayer)
        model.viewer(viewer, animates: true)
        #expect(playback.wantsPlayer)
        model.viewerDidLeave(viewer)
        #expect(!playback.wantsPlayer)
    }

    @Test(
        "a player that fails leaves the poster up with an error that says why, and is tried again when the clip comes back into sight or on retry"
    )
    func failureRecovers() async throws {
        let (model, _) = try await Self.loadedModel()
        model.viewDidAppear()
        let playback = try #require(model.videoPlayback)
        playback.playerDidFail(reason: "cannot decode")
        #expect(playback.state == .failed(.decodingFailed(format: .mp4, reason: "cannot decode")))
        #expect(!playback.wantsPlayer)
        guard case .success = model.phase else {
            Issue.record("the poster went: \(model.phase)")
            return
        }
        model.viewVisibilityDidChange(window: true)  // still in sight: no new player for a failed clip
        #expect(!playback.wantsPlayer)
        // A media-services reset fails the player; the next appearance makes a new one.
        model.viewDidDisappear()
        model.viewDidAppear()
        #expect(playback.wantsPlayer && playback.state == .poster && playback.error == nil)
        playback.playerDidBecomeReady()
        #expect(playback.state == .playing)
        // Failed again (an interruption); the app's retry tries at once.
        playback.playerDidFail(reason: "interrupted")
        #expect(!playback.wantsPlayer)
        model.retry()
        #expect(playback.wantsPlayer && playback.error == nil)
        playback.playerDidFail(reason: "late")  // a report of a player already let go counts once
        playback.playerDidFail(reason: "later")
        #expect(playback.state == .failed(.decodingFailed(format: .mp4, reason: "late")))
    }

    @Test("at most the slots' capacity of clips have players; a slot let go goes to the clip that waited longest")
    func playersAreBounded() async throws {
        let url = try #require(Self.clip)
        let bytes = try Data(contentsOf: url)
        let slots = VideoPlayerSlots(capacity: 2)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        var models: [ImageModel] = []
        for index in 0..<4 {
            let model = ImageModel(pipeline: pipeline)
            model.playback.videoPlayerSlots = slots
            model.viewDidAppear()
            model.load(ImageRequest(source: .data(id: "clip-\(index)", load: { bytes })))
            #expect(await modelSettled(model))
            models.append(model)
        }
        let playbacks = try models.map { try #require($0.videoPlayback) }
        #expect(playbacks.map(\.wantsPlayer) == [true, true, false, false])
        #expect(slots.playersAlive == 2)
        #expect(playbacks[2].state == .poster && playbacks[3].state == .poster)

        models[0].viewVisibilityDidChange(scrollViewport: false)  // scrolled away: its slot goes to the third
        #expect(playbacks.map(\.wantsPlayer) == [false, true, true, false])
        models[3].viewDidDisappear()  // the fourth gave up waiting
        models[1].reset()  // the second shows nothing now: its slot is free, nobody waits
        #expect(playbacks.map(\.wantsPlayer) == [false, false, true, false])
        #expect(slots.playersAlive == 1)
        models[0].viewVisibilityDidChange(scrollViewport: true)
        models[3].viewDidAppear()
        #expect(playbacks[0].wantsPlayer && !playbacks[3].wantsPlayer)
        #expect(slots.playersAlive == 2)
    }

    @Test("a clip whose audio outlasts its video is as long as its video: no empty tail to loop over")
    func audioLongerThanVideo() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-long-audio-\(getpid()).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:v", "libx264", "-preset", "veryfast",
            "-pix_fmt", "yuv420p", "-c:a", "aac", url.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not make the clip")
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let image = try await pipeline.image(for: ImageRequest(source: .file(url)))
        #expect(image.video != nil)
        let animation = try #require(image.animation)
        let seconds = (0..<animation.frameCount).reduce(0) { $0 + animation.duration(at: $1) }
        #expect(animation.frameCount == 10, "\(animation.frameCount) frames")
        #expect(abs(seconds - 1) < 0.15, "the clip lasts \(seconds) s, not its video's 1 s")
    }

    @Test("a larger decode of the same clip keeps its playback; a reset stops and releases it")
    func playbackLifetime() async throws {
        let (model, _) = try await Self.loadedModel(targetSize: CGSize(width: 80, height: 60))
        let url = try #require(Self.clip)
        weak let released: VideoPlayback?
        do {
            let first = try #require(model.videoPlayback)
            first.playerDidBecomeReady()
            model.load(ImageRequest(source: .file(url), targetSize: CGSize(width: 160, height: 120)))
            #expect(model.videoPlayback === first)  // the smaller poster stays up meanwhile
            #expect(await modelSettled(model))
            #expect(model.phase.loadedImage?.bitmap.width == 160)
            #expect(model.videoPlayback === first && first.state == .playing)
            released = first
        }
        model.reset()
        #expect(model.videoPlayback == nil)
        #expect(released == nil)
    }
}

/// A 1 s, 160×120 H.264 MP4 of ffmpeg's test pattern, made once per run.
enum TestClip {
    static let url: URL? = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-videoui-\(getpid()).mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", url.path,
        ]
        guard (try? ffmpeg.run()) != nil else { return nil }
        ffmpeg.waitUntilExit()
        return ffmpeg.terminationStatus == 0 ? url : nil
    }()
}
#endif
