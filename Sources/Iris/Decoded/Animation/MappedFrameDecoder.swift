/// Another frame decoder's frames with `transform` applied to each as it is made (processors,
/// colour conversion): position, rewinding and working bytes are the base decoder's.
final class MappedFrameDecoder: AnimationFrameDecoder {
    private let base: any AnimationFrameDecoder
    /// Applied to each frame with its index.
    private let transform: (Bitmap, Int) throws(ImageError) -> Bitmap

    init(base: any AnimationFrameDecoder, transform: @escaping (Bitmap, Int) throws(ImageError) -> Bitmap) {
        self.base = base
        self.transform = transform
    }

    var nextIndex: Int { base.nextIndex }
    var workingBytes: Int { base.workingBytes }
    func rewind(toKeyFrameAtOrBefore index: Int) { base.rewind(toKeyFrameAtOrBefore: index) }

    func nextFrame() throws(ImageError) -> Bitmap {
        let index = base.nextIndex
        return try transform(try base.nextFrame(), index)
    }
}
