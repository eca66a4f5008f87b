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
