/// Composes a ``ComposedAnimationSource``'s frames on an ``AnimationCanvas`` and shrinks each
/// composed canvas to the frame size with the resampler (premultiplied).
final class ComposingFrameDecoder: AnimationFrameDecoder {
    private let source: ComposedAnimationSource
    private let frameSize: PixelSize
    private let kernel: ResamplingKernel
    private let canvas: AnimationCanvas
    private(set) var nextIndex = 0

    init(source: ComposedAnimationSource, frameSize: PixelSize, kernel: ResamplingKernel) {
        self.source = source
        self.frameSize = frameSize
        self.kernel = kernel
        canvas = AnimationCanvas(size: source.canvas)
    }

    var workingBytes: Int { canvas.workingBytes }

    func nextFrame() throws(ImageError) -> Bitmap {
        precondition(nextIndex < source.frameCount, "no frame after the last")
        let pixels = try source.reader.pixels(ofFrame: nextIndex)
        canvas.draw(source.frames[nextIndex], pixels: pixels)
        nextIndex += 1
        let sink = makeRowSink(source: source.canvas, output: frameSize, format: .rgba8, kernel: kernel)
        canvas.render(into: sink)
        return sink.finish()
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        nextIndex = source.keyFrame(atOrBefore: index)
        canvas.reset()
    }
}
