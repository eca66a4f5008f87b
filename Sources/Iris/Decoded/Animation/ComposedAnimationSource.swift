/// An animation whose frames are composed on a full-size canvas (GIF, APNG, animated WebP):
/// the frames' placement and timing from a walk over the file, and a reader for their pixels.
struct ComposedAnimationSource: AnimationFrameSource {
    let canvas: PixelSize
    let frames: [AnimationFrameInfo]
    let loopCount: Int
    let reader: any AnimationFramePixelReader
    /// What the file's colour chunks declare, set by its decoder when it plays the animation.
    var declaredColorSpace: ColorSpace?
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

/// Decodes one frame's own pixels (its rectangle), given the frames a walk over the file found.
protocol AnimationFramePixelReader: Sendable {
    /// Frame `index`'s pixels, premultiplied RGBA, `frame.width × frame.height`.
    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels
    /// Bytes of encoded data the reader keeps.
    var encodedByteCount: Int { get }
}

/// A frame's own pixels (its rectangle, not the canvas): premultiplied RGBA, rows packed.
struct FramePixels {
    var width: Int
    var height: Int
    var bytes: [UInt8]
}
