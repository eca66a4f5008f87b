import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// Which frame of an animation a view shows when.
@Suite("Animation timing")
struct AnimationTimingTests {
    static func animation(_ durations: [Double], loopCount: Int = 0) -> Animation {
        Animation(
            frames: durations.indices.map { _ in Bitmap(width: 1, height: 1, format: .rgba8) },
            durations: durations, loopCount: loopCount)
    }

    @Test("frames follow their durations and loop; delays of 10 ms or less play as 100 ms")
    func frameSequence() {
        let animation = Self.animation([0.05, 0.0, 0.01, 0.2])  // plays as 50, 100, 100, 200 ms
        #expect(animation.displayDuration(at: 1) == 0.1 && animation.displayDuration(at: 2) == 0.1)
        let shown = stride(from: 0.0, to: 0.9, by: 0.05).map { animation.frameIndex(atElapsed: $0 + 0.001) }
        #expect(shown == [0, 1, 1, 2, 2, 3, 3, 3, 3, 0, 1, 1, 2, 2, 3, 3, 3, 3])
    }

    @Test("a late tick skips frames rather than slowing down; a finite loop count ends on the last frame")
    func lateTicksAndLoopCount() {
        let animation = Self.animation([0.1, 0.1, 0.1], loopCount: 2)
        #expect(animation.frameIndex(atElapsed: 0.05) == 0)
        #expect(animation.frameIndex(atElapsed: 0.25) == 2)  // frame 1 skipped
        #expect(animation.frameIndex(atElapsed: 0.35) == 0)  // second loop
        #expect(animation.frameIndex(atElapsed: 0.65) == 2)
        #expect(animation.frameIndex(atElapsed: 10) == 2)  // stays on the last frame
        #expect(Self.animation([0.1, 0.1]).frameIndex(atElapsed: 10.05) == 0)  // forever
        #expect(Self.animation([0.1]).frameIndex(atElapsed: 5) == 0)
    }
}
