/// A source whose frames are made from another's (converted, processed): what the file says about
/// the animation (canvas, frames, loops, timing, key frames, the bytes kept and the working
/// memory) is its base's unless it says otherwise.
protocol DerivedAnimationSource: AnimationFrameSource {
    /// The source the frames come from.
    var base: any AnimationFrameSource { get }
}

extension DerivedAnimationSource {
    var canvas: PixelSize { base.canvas }
    var frameCount: Int { base.frameCount }
    var loopCount: Int { base.loopCount }
    var encodedByteCount: Int { base.encodedByteCount }
    var maximumWorkingBytes: Int { base.maximumWorkingBytes }
    func duration(at index: Int) -> Double { base.duration(at: index) }
    func keyFrame(atOrBefore index: Int) -> Int { base.keyFrame(atOrBefore: index) }
}
