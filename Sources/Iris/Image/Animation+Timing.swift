extension Animation {
    /// How long frame `index` is shown, in seconds, as browsers play it: a delay of 10 ms or
    /// less (often 0 in GIFs made for old players) is shown for 100 ms.
    public func displayDuration(at index: Int) -> Double {
        let duration = duration(at: index)
        return duration > 0.010 ? duration : 0.1
    }

    /// The frame to show `elapsed` seconds after the animation started: a function of time, so
    /// a late tick skips frames instead of slowing the animation down. Once a finite
    /// ``loopCount`` has played, the last frame stays.
    public func frameIndex(atElapsed elapsed: Double) -> Int {
        let count = frameCount
        guard count > 1, elapsed.isFinite, elapsed > 0 else { return 0 }
        let loop = (0..<count).reduce(0) { $0 + displayDuration(at: $1) }
        if loopCount > 0, elapsed >= loop * Double(loopCount) { return count - 1 }
        var time = elapsed.truncatingRemainder(dividingBy: loop)
        for index in 0..<count {
            time -= displayDuration(at: index)
            if time < 0 { return index }
        }
        return count - 1
    }
}
