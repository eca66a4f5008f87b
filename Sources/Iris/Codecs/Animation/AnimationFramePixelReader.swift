/// Decodes one frame's own pixels (its rectangle), given the frames a walk over the file found.
protocol AnimationFramePixelReader: Sendable {
    /// Frame `index`'s pixels, premultiplied RGBA, `frame.width × frame.height`.
    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels
    /// Bytes of encoded data the reader keeps.
    var encodedByteCount: Int { get }
}
