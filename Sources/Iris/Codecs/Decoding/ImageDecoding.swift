import Foundation

/// A decoder for one or more formats, used through ``ImageDecoderRegistry``: the plug-in point
/// for a codec. See <doc:AddingACodec> for a complete example.
///
/// A decoder says which formats it reads, may recognise a format of its own from the first
/// bytes, reads headers (so limits are checked before any pixel is allocated), answers its
/// format's questions (the orientation its container stores, whether a file is a video, the
/// colour space an animation declares), decodes the first frame at the size it is asked for, and
/// may bring the frames of an animation. The rules every format shares (limits, the target,
/// colour management, orientation) are applied around it, once, by the registry's decode.
public protocol ImageDecoding: Sendable {
    /// The formats this decoder reads.
    var formats: Set<ImageFormat> { get }

    /// The format of `data` by this decoder's own rule (its magic bytes), for a format Iris does
    /// not recognise itself; `nil` leaves `data` to Iris's sniffer (the default).
    func format(of data: Data) -> ImageFormat?

    /// Reads size and alpha from the header without decoding pixels (a video's decoder sets
    /// ``ImageHeader/isVideo``). The returned orientation may be left `.up`: it is asked of
    /// ``orientation(in:releasingInput:)``.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader

    /// The orientation `data`'s container stores for its pixels (EXIF), by this decoder's
    /// format's rules; `nil` (the default) for a format that stores none, or pixels the decoder
    /// turns upright itself. `releasingInput` is told how far a walk to the end of the file has
    /// read, so a mapped file's pages can be given back.
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation?

    /// Decodes the first frame at exactly `context.outputSize` (stored orientation), shrinking
    /// while decoding where the codec can and resampling the rest.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap

    /// The frames of an animated `data`, made lazily, when this decoder reads animations and
    /// `data` is one; `nil` otherwise (the default): the registry then decodes a still.
    /// Checks `limits` (frames, frame sizes) while walking.
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)?
}

extension ImageDecoding {
    /// Recognises nothing of its own: Iris's sniffer decides.
    public func format(of data: Data) -> ImageFormat? { nil }

    /// No stored orientation: the pixels are shown as decoded.
    public func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? { nil }

    /// No animations: every file decodes as a still.
    public func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? { nil }
}
