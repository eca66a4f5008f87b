import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// What plays, and only while it can be seen: the decisions behind the views, made by the model on Linux.
@MainActor
@Suite("What plays, and only while it can be seen")
struct PlaybackVisibilityTests {
    @Test("an owned animation pauses when scrolled out of its scroll view or its window is covered")
    func ownerVisibility() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewTestFixtures.animatedRequest(id: "owned-visibility"))
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
        model.load(try ViewTestFixtures.animatedRequest(id: "shared-visibility"))
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

    @Test("a shared model stops once its last viewer leaves; a model no view ever showed plays")
    func lastViewerLeaving() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewTestFixtures.animatedRequest(id: "last-viewer"))
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
        let request = try ViewTestFixtures.animatedRequest(id: "loop")
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

    @Test("an animation pauses off screen, in the background and when switched off, and wakes nothing meanwhile")
    func playbackPauses() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewTestFixtures.animatedRequest(id: "pause"))
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
        model.load(try ViewTestFixtures.animatedRequest(id: "once", loopCount: 1))
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
        model.load(try ViewTestFixtures.animatedRequest(id: "switch"))
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

    @Test("with Animated Images off the first frame shows; with video auto-play off the poster stays, no player")
    func userPreferences() async throws {
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init(memoryCache: MemoryCache())))
        model.clock = clock
        model.load(try ViewTestFixtures.animatedRequest(id: "preferences"))
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
        animated.load(try ViewTestFixtures.animatedRequest(id: "tracked"))
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
}
