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
        #expect(playback.wantsPlayer && playback.isPlaying)  // no view has reported: plays, as animations do
        #expect(playback.state == .poster && !playback.showsPlayer)
        #expect(model.displayedPhase.loadedImage?.bitmap.sharesStorage(with: poster.bitmap) == true)

        playback.playerDidBecomeReady()
        #expect(playback.state == .playing && playback.showsPlayer)
    }

    @Test("the clip pauses when covered, scrolled away, in the background; its player goes off screen and when switched off")
    func followsTheVisibilityPolicy() async throws {
        let (model, _) = try await Self.loadedModel()
        model.viewDidAppear()
        let playback = try #require(model.videoPlayback)
        playback.playerDidBecomeReady()
        #expect(playback.state == .playing)

        model.viewVisibilityDidChange(window: false)
        #expect(playback.state == .paused && playback.wantsPlayer)
        model.viewVisibilityDidChange(window: true)
        model.viewVisibilityDidChange(scrollViewport: false)
        #expect(playback.state == .paused)
        model.viewVisibilityDidChange(scrollViewport: true)
        model.appDidChange(isActive: false)
        #expect(playback.state == .paused)
        model.appDidChange(isActive: true)
        #expect(playback.state == .playing)

        model.viewDidDisappear()  // the view went: the player is let go
        #expect(!playback.wantsPlayer && !playback.isPlaying && playback.state == .poster)
        playback.playerDidBecomeReady()  // a late report of the player let go
        #expect(playback.state == .poster)
        model.viewDidAppear()  // a new player: the poster until it is ready
        #expect(playback.wantsPlayer && playback.state == .poster)
        playback.playerDidBecomeReady()
        #expect(playback.state == .playing)

        model.playsAnimations = false  // .animatesFrames(false): the poster only
        #expect(!playback.wantsPlayer && playback.state == .poster)
        model.playsAnimations = true
        #expect(playback.wantsPlayer && playback.isPlaying)
    }

    @Test("a sharing view that can see the clip keeps it playing after the owner left; one that only shows the poster does not")
    func sharingViews() async throws {
        let (model, _) = try await Self.loadedModel()
        let playback = try #require(model.videoPlayback)
        let viewer = ImageViewer()
        model.viewDidAppear()
        model.viewer(viewer, onScreen: true, animates: true)
        model.viewDidDisappear()
        #expect(playback.wantsPlayer && playback.isPlaying)
        model.viewer(viewer, animates: false)
        #expect(playback.wantsPlayer && !playback.isPlaying)
        model.viewerDidLeave(viewer)
        #expect(!playback.wantsPlayer)
    }

    @Test("a player that fails leaves the poster up for good, with an error that says why")
    func failureKeepsThePoster() async throws {
        let (model, _) = try await Self.loadedModel()
        let playback = try #require(model.videoPlayback)
        playback.playerDidFail(reason: "cannot decode")
        #expect(playback.state == .failed(.decodingFailed(format: .mp4, reason: "cannot decode")))
        #expect(!playback.wantsPlayer)
        guard case .success = model.phase else {
            Issue.record("the poster went: \(model.phase)")
            return
        }
        model.viewDidDisappear()
        model.viewDidAppear()
        #expect(!playback.wantsPlayer)
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
