/// When each frame of an ``Animation`` is shown, computed once: the frame due at a time and the
/// time of the next change are binary searches, so a player's cost per frame does not grow with
/// the frame count.
public struct AnimationTimeline: Sendable, Hashable {
    /// The end of each frame within one loop, in seconds from the loop's start (display
    /// durations, see ``Animation/displayDuration(at:)``, added up).
    public let frameEnds: [Double]
    /// Times the animation plays; 0 plays forever.
    public let loopCount: Int

    /// The timeline of `animation`.
    public init(_ animation: Animation) {
        var ends: [Double] = []
        ends.reserveCapacity(animation.frameCount)
        var time = 0.0
        for index in 0..<animation.frameCount {
            time += animation.displayDuration(at: index)
            ends.append(time)
        }
        frameEnds = ends
        loopCount = animation.loopCount
    }

    /// One loop's length in seconds.
    public var loopDuration: Double { frameEnds.last ?? 0 }

    /// Whether time moves the frame shown at all (more than one frame, a loop of some length).
    public var isAnimated: Bool { frameEnds.count > 1 && loopDuration > 0 }

    /// The frame to show `elapsed` seconds after the animation started. Once a finite
    /// ``loopCount`` has played, the last frame stays.
    public func frameIndex(atElapsed elapsed: Double) -> Int {
        guard isAnimated, elapsed.isFinite, elapsed > 0 else { return 0 }
        if hasEnded(atElapsed: elapsed) { return frameEnds.count - 1 }
        let time = elapsed.truncatingRemainder(dividingBy: loopDuration)
        return firstEnd(after: time) ?? frameEnds.count - 1
    }

    /// Seconds from `elapsed` until the frame shown changes; `nil` once a finite loop count has
    /// played out (or when nothing ever changes).
    public func secondsToNextChange(afterElapsed elapsed: Double) -> Double? {
        guard isAnimated, elapsed.isFinite else { return nil }
        let elapsed = max(0, elapsed)
        if hasEnded(atElapsed: elapsed) { return nil }
        let loopStart = (elapsed / loopDuration).rounded(.down) * loopDuration
        let time = elapsed - loopStart
        guard let index = firstEnd(after: time) else { return loopDuration - time }
        return frameEnds[index] - time
    }

    private func hasEnded(atElapsed elapsed: Double) -> Bool {
        loopCount > 0 && elapsed >= loopDuration * Double(loopCount)
    }

    /// The first frame whose end is after `time` (within one loop).
    private func firstEnd(after time: Double) -> Int? {
        var low = 0
        var high = frameEnds.count
        while low < high {
            let middle = (low + high) / 2
            if frameEnds[middle] > time { high = middle } else { low = middle + 1 }
        }
        return low < frameEnds.count ? low : nil
    }
}

extension Animation {
    /// How long frame `index` is shown, in seconds, as browsers play it: a delay of 10 ms or
    /// less (often 0 in GIFs made for old players) is shown for 100 ms.
    public func displayDuration(at index: Int) -> Double {
        let duration = duration(at: index)
        return duration > 0.010 ? duration : 0.1
    }

    /// The frame to show `elapsed` seconds after the animation started: a function of time, so
    /// a late tick skips frames instead of slowing the animation down. Once a finite
    /// ``loopCount`` has played, the last frame stays. (A player asks its ``AnimationTimeline``,
    /// made once, instead of this.)
    public func frameIndex(atElapsed elapsed: Double) -> Int {
        AnimationTimeline(self).frameIndex(atElapsed: elapsed)
    }
}
