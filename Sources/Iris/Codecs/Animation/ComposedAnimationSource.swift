/// Decodes one frame's own pixels (its rectangle), given the frames a walk over the file found.
protocol AnimationFramePixelReader: Sendable {
    /// Frame `index`'s pixels, premultiplied RGBA, `frame.width × frame.height`.
    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels
    /// Bytes of encoded data the reader keeps.
    var encodedByteCount: Int { get }
}

/// An animation whose frames are composed on a full-size canvas (GIF, APNG, animated WebP):
/// the frames' placement and timing from a walk over the file, and a reader for their pixels.
struct ComposedAnimationSource: AnimationFrameSource {
    let canvas: PixelSize
    let frames: [AnimationFrameInfo]
    let loopCount: Int
    let reader: any AnimationFramePixelReader
    private let keyFrames: [Int]

    init(canvas: PixelSize, frames: [AnimationFrameInfo], loopCount: Int, reader: any AnimationFramePixelReader) {
        self.canvas = canvas
        self.frames = frames
        self.loopCount = loopCount
        self.reader = reader
        keyFrames = AnimationFrameInfo.keyFrames(of: frames, canvas: canvas)
    }

    var frameCount: Int { frames.count }

    var encodedByteCount: Int { reader.encodedByteCount }

    /// The canvas, and a saved region at most the canvas's size.
    var maximumWorkingBytes: Int { canvas.pixelCount * 4 * 2 }

    func duration(at index: Int) -> Double { frames[index].duration }

    func keyFrame(atOrBefore index: Int) -> Int {
        // Binary search for the last key frame <= index (frame 0 is always one).
        var low = 0, high = keyFrames.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if keyFrames[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return keyFrames[low]
    }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        ComposingFrameDecoder(source: self, frameSize: frameSize, kernel: kernel)
    }
}

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
