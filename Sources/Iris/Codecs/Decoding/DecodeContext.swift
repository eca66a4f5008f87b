/// One decode as an ``ImageDecoding`` receives it: the caller's options, the header the decoder
/// read, and the size it must produce (the options' target applied to that header).
public struct DecodeContext: Sendable {
    /// What the caller asked for. A decoder reads ``DecodeOptions/kernel``,
    /// ``DecodeOptions/limits`` and ``DecodeOptions/allowsPartialData``; the target is already
    /// ``outputSize`` and orientation is applied by the registry after the decode.
    public var options: DecodeOptions
    /// The header the decoder read.
    public var header: ImageHeader
    /// Output size in stored orientation; the decoder must return exactly this size.
    public var outputSize: PixelSize
    /// Called with how many input bytes the decoder has consumed, when the input is a mapped
    /// file whose read pages can be given back (see ``ImageDecoderRegistry/decode(contentsOf:options:)``).
    var releaseConsumedInput: (@Sendable (Int) -> Void)?

    /// Makes a context for decoding an image with `header` at `outputSize`.
    public init(header: ImageHeader, outputSize: PixelSize, options: DecodeOptions = DecodeOptions()) {
        self.header = header
        self.outputSize = outputSize
        self.options = options
    }
}
