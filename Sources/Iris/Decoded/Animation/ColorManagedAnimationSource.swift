/// An animation's frames in the colour space its file declares: each frame the base source
/// composes is tagged with `colorSpace` and then converted or kept as `management` says, like a
/// still image (see ``ImageDecoderRegistry/decode(_:options:)``).
struct ColorManagedAnimationSource: DerivedAnimationSource {
    let base: any AnimationFrameSource
    let colorSpace: ColorSpace
    let management: ColorManagement

    /// The base decoder's frames, tagged and converted at the frame size.
    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        let (colorSpace, management) = (colorSpace, management)
        return MappedFrameDecoder(base: try base.makeDecoder(frameSize: frameSize, kernel: kernel)) { frame, _ in
            var frame = frame
            frame.colorSpace = colorSpace
            return management.apply(to: frame)
        }
    }
}
