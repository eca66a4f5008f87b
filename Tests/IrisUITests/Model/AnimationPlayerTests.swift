import Foundation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// ``AnimationPlayer`` on a manual clock: which frame shows when.
@MainActor
@Suite("AnimationPlayer")
struct AnimationPlayerTests {
    /// An animation whose frame `i` is a 1×1 bitmap of red level `i`.
    static func animation(_ durations: [Double], loopCount: Int = 0) -> Animation {
        let frames = durations.indices.map { index -> Bitmap in
            var bitmap = Bitmap(width: 1, height: 1, format: .rgba8)
            bitmap.setRGBA(RGBA(r: UInt8(index), g: 0, b: 0), x: 0, y: 0)
            return bitmap
        }
        return Animation(frames: frames, durations: durations, loopCount: loopCount)
    }

    static func player(_ animation: Animation, clock: VirtualClock) async throws -> AnimationPlayer {
        AnimationPlayer(animation: animation, firstFrame: try await animation.frame(at: 0), clock: clock)
    }

    /// Advances the clock, then waits for the player to show `index` (its frame, too).
    func expectFrame(
        _ index: Int, after step: Double, _ player: AnimationPlayer, _ clock: VirtualClock,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        clock.advance(by: .seconds(step))
        let shown = await modelEventually {
            player.currentIndex == index && player.currentFrame.rgba(x: 0, y: 0).r == UInt8(index)
        }
        #expect(shown, "after +\(step) s: frame \(player.currentIndex), expected \(index)", sourceLocation: sourceLocation)
    }

    @Test("frames follow their durations and loop forever")
    func sequence() async throws {
        let clock = VirtualClock()
        let player = try await Self.player(Self.animation([0.1, 0.2, 0.1]), clock: clock)
        player.play()
        #expect(player.isPlaying)
        await expectFrame(0, after: 0.05, player, clock)
        await expectFrame(1, after: 0.1, player, clock)  // 0.15
        await expectFrame(1, after: 0.1, player, clock)  // 0.25
        await expectFrame(2, after: 0.1, player, clock)  // 0.35
        await expectFrame(0, after: 0.1, player, clock)  // 0.45: second loop
        await expectFrame(1, after: 0.1, player, clock)  // 0.55
    }

    @Test("a late tick skips frames instead of slowing down")
    func lateTick() async throws {
        let clock = VirtualClock()
        let player = try await Self.player(Self.animation([0.1, 0.1, 0.1, 0.1]), clock: clock)
        player.play()
        await expectFrame(2, after: 0.25, player, clock)  // frame 1 never shown
        await expectFrame(1, after: 0.3, player, clock)  // 0.55 → second loop, frame 1
    }

    @Test("a finite loop count ends on the last frame and stops")
    func loopCount() async throws {
        let clock = VirtualClock()
        let player = try await Self.player(Self.animation([0.1, 0.1], loopCount: 2), clock: clock)
        player.play()
        await expectFrame(1, after: 0.15, player, clock)
        await expectFrame(0, after: 0.1, player, clock)  // 0.25: second loop
        await expectFrame(1, after: 0.1, player, clock)  // 0.35
        clock.advance(by: .seconds(1))
        #expect(await modelEventually { !player.isPlaying })
        #expect(player.currentIndex == 1)
    }

    @Test("pause stops time; play resumes from the same point")
    func pauseAndResume() async throws {
        let clock = VirtualClock()
        let player = try await Self.player(Self.animation([0.1, 0.1, 0.1]), clock: clock)
        player.play()
        await expectFrame(1, after: 0.15, player, clock)
        player.pause()
        #expect(!player.isPlaying)
        #expect(await modelEventually { clock.sleeperCount == 0 })  // paused: nothing left to wake
        clock.advance(by: .seconds(5))
        #expect(player.currentIndex == 1)
        #expect(abs(player.elapsed - 0.15) < 1e-9)
        player.play()
        await expectFrame(2, after: 0.1, player, clock)  // 0.25 played
    }

    @Test("delays of 10 ms or less play as 100 ms; a still image does not play")
    func tinyDelays() async throws {
        let clock = VirtualClock()
        let player = try await Self.player(Self.animation([0, 0.01]), clock: clock)
        player.play()
        await expectFrame(0, after: 0.05, player, clock)
        await expectFrame(1, after: 0.1, player, clock)  // 0.15
        await expectFrame(0, after: 0.1, player, clock)  // 0.25

        let still = try await Self.player(Self.animation([0.1]), clock: clock)
        still.play()
        #expect(!still.isPlaying)
    }

    @Test("the time to the next frame change")
    func schedule() async throws {
        let timeline = AnimationTimeline(Self.animation([0.1, 0.2], loopCount: 1))
        #expect(abs((timeline.secondsToNextChange(afterElapsed: 0) ?? -1) - 0.1) < 1e-9)
        #expect(abs((timeline.secondsToNextChange(afterElapsed: 0.15) ?? -1) - 0.15) < 1e-9)
        #expect(timeline.secondsToNextChange(afterElapsed: 0.31) == nil)
        let forever = AnimationTimeline(Self.animation([0.1, 0.2]))
        #expect(abs((forever.secondsToNextChange(afterElapsed: 0.35) ?? -1) - 0.05) < 1e-9)  // second loop
        #expect(AnimationTimeline(Self.animation([0.1])).secondsToNextChange(afterElapsed: 0) == nil)
    }
}

extension AnimationPlayerTests {
    @Test("an animated result gets a player on the model's clock; it pauses off screen and when switched off")
    func modelPlaysAnimations() async throws {
        let png = try PNGEncoder().encode(Bitmap(width: 4, height: 4, format: .rgba8), options: EncodeOptions())
        let frames = Self.animation([0.1, 0.1, 0.1])
        let clock = VirtualClock()
        let model = ImageModel(pipeline: ImagePipeline(configuration: .init()))
        model.clock = clock
        model.load(
            ImageRequest(
                source: .data(id: "animated") { png },
                processors: [
                    .custom("frames") { image in
                        var animated = image
                        animated.animation = frames
                        return animated
                    }
                ]))
        #expect(await modelSettled(model))
        let player = try #require(model.animationPlayer)
        #expect(player.isPlaying)
        await expectFrame(1, after: 0.15, player, clock)
        #expect(model.phase.showing(frame: player.currentFrame).loadedImage?.bitmap.rgba(x: 0, y: 0).r == 1)
        model.viewDidDisappear()
        #expect(!player.isPlaying)
        model.viewDidAppear()
        #expect(player.isPlaying)
        model.playsAnimations = false
        #expect(!player.isPlaying)
        model.reset()
        #expect(model.animationPlayer == nil)
    }
}
