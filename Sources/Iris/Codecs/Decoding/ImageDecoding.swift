import Foundation

/// A decoder for one or more formats, used through ``ImageDecoderRegistry``.
public protocol ImageDecoding: Sendable {
    /// The formats this decoder reads.
    var formats: Set<ImageFormat> { get }

    /// Reads size and alpha from the header without decoding pixels.
    /// The returned orientation may be left `.up`; the registry fills it in.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader

    /// Decodes the first frame at exactly `context.outputSize` (stored orientation), shrinking
    /// while decoding where the codec can and resampling the rest.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap
}
