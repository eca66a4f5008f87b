/// An animation's frames in the colour space its file declares: each frame the base source
/// composes is tagged with `colorSpace` and then converted or kept as `management` says, like a
/// still image (see ``ImageDecoderRegistry/decode(_:options:)``).
struct ColorManagedAnimationSource: AnimationFrameSource {
    let base: any AnimationFrameSource
    let colorSpace: ColorSpace
    let management: ColorManagement

    var canvas: PixelSize { base.canvas }
    var frameCount: Int { base.frameCount }
    var loopCount: Int { base.loopCount }
    func duration(at index: Int) -> Double { base.duration(at: index) }
    func keyFrame(atOrBefore index: Int) -> Int { base.keyFrame(atOrBefore: index) }
    var encodedByteCount: Int { base.encodedByteCount }
    var maximumWorkingBytes: Int { base.maximumWorkingBytes }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        Decoder(base: try base.makeDecoder(frameSize: frameSize, kernel: kernel), colorSpace: colorSpace, management: management)
    }

    /// The base decoder's frames, tagged and converted at the frame size.
    final class Decoder: AnimationFrameDecoder {
        let base: any AnimationFrameDecoder
        let colorSpace: ColorSpace
        let management: ColorManagement

        init(base: any AnimationFrameDecoder, colorSpace: ColorSpace, management: ColorManagement) {
            self.base = base
            self.colorSpace = colorSpace
            self.management = management
        }

        var nextIndex: Int { base.nextIndex }
        var workingBytes: Int { base.workingBytes }
        func rewind(toKeyFrameAtOrBefore index: Int) { base.rewind(toKeyFrameAtOrBefore: index) }

        func nextFrame() throws(ImageError) -> Bitmap {
            var frame = try base.nextFrame()
            frame.colorSpace = colorSpace
            return management.apply(to: frame)
        }
    }
}
