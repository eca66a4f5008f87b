import Foundation

/// Encoded bytes a caller already holds, with their header (EXIF orientation included) and the
/// decoder that read it, for a caller that decides from the header (limits, an output format, a
/// validator) before rendering them with
/// ``ImageDecoderRegistry/image(decoding:target:appliesOrientation:limits:processors:)``: the
/// bytes are not sniffed or their header parsed again.
public struct HeldImageData: Sendable {
    /// The encoded bytes.
    public let data: Data
    /// Their header.
    public let header: ImageHeader
    /// The decoder of their format, which read ``header``.
    let decoder: any ImageDecoding
}

extension ImageDecoderRegistry {
    /// Reads `data`'s format (by these decoders) and header.
    public func readHeader(of data: Data) throws(ImageError) -> HeldImageData {
        let decoder = try decoderAndFormat(of: data).0
        let header = try ImageDecode.header(of: data, decoder: decoder, releasingInput: nil)
        return HeldImageData(data: data, header: header, decoder: decoder)
    }

    /// The image of bytes in hand: decoded at `target` (checked against `limits`, with this
    /// registry's options) with the header ``readHeader(of:)`` read, turned upright unless
    /// `appliesOrientation` is off, then `processors` run in order (an animation gets them on
    /// every frame). The same decode as a pipeline's, without finding the decoder or reading
    /// the header again; nothing is cached or shared with other calls (a caller that wants one
    /// render for identical calls in flight joins them itself, as Iris Server does). The work
    /// runs on the calling task, whose caller bounds how many run at once. Cancelling the task
    /// stops the processors between steps.
    public func image(
        decoding held: HeldImageData, target: DecodeTarget?, appliesOrientation: Bool, limits: DecodingLimits,
        processors: [any ImageProcessing]
    ) async throws(ImageError) -> LoadedImage {
        let options = DecodeOptions(target: target, appliesOrientation: appliesOrientation, limits: limits)
        let decode = makeDecode(of: held.data, options: options, releasingInput: nil)
        return try decode.run(held.decoder, header: held.header).applying(processors).get()
    }
}
