import Foundation

/// Encoded bytes a caller already holds, with their header (EXIF orientation included) and the
/// decoder that read it, for a caller that decides from the header (limits, an output format, a
/// validator) before rendering them with
/// ``ImagePipeline/image(decoding:target:appliesOrientation:processors:)``: the bytes are not
/// fetched, cached, sniffed or their header parsed again.
public struct HeldImageData: Sendable {
    /// The encoded bytes.
    public let data: Data
    /// Their header.
    public let header: ImageHeader
    /// The decoder of their format, which read ``header``.
    let decoder: any ImageDecoding
}

extension ImagePipeline {
    /// Reads `data`'s format (by the configuration's decoders) and header.
    public func readHeader(of data: Data) throws(ImageError) -> HeldImageData {
        let decoder = try configuration.decoders.decoderAndFormat(of: data).0
        let header = try ImageDecode.header(of: data, decoder: decoder, releasingInput: nil)
        return HeldImageData(data: data, header: header, decoder: decoder)
    }

    /// The image of bytes in hand: decoded at `target` (checked against the configuration's
    /// limits, with its decoders' options) with the header ``readHeader(of:)`` read, turned
    /// upright unless `appliesOrientation` is off, then `processors` run in order (an animation
    /// gets them on every frame). The same decode as a request's (``ImageDecoderRegistry``'s),
    /// without finding the decoder or reading the header again.
    ///
    /// No fetch, no cache (neither disk nor memory), and no stage shared with other requests:
    /// two calls for the same bytes decode twice (a caller that wants one render for identical
    /// calls in flight joins them itself). The work runs on the calling task, whose caller
    /// bounds how many run at once. Cancelling the task stops the processors between steps.
    public func image(
        decoding held: HeldImageData, target: DecodeTarget?, appliesOrientation: Bool,
        processors: [any ImageProcessing]
    ) async throws(ImageError) -> LoadedImage {
        let options = DecodeOptions(target: target, appliesOrientation: appliesOrientation, limits: configuration.limits)
        let decode = configuration.decoders.makeDecode(of: held.data, options: options, releasingInput: nil)
        return try decode.run(held.decoder, header: held.header).applying(processors).get()
    }
}
