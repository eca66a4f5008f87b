import Foundation

/// Encoded bytes a caller already holds, with what was read from them once: the decoder that
/// reads them and their header (EXIF orientation included). A caller that decides from the
/// header (limits, an output format, a validator) before rendering passes this to
/// ``ImagePipeline/image(decoding:target:appliesOrientation:processors:)`` and the bytes are
/// neither sniffed nor their header parsed again.
public struct HeldImageData: Sendable {
    /// The encoded bytes.
    public let data: Data
    /// The decoder that reads them.
    public let decoder: any ImageDecoding
    /// Their header.
    public let header: ImageHeader
}

extension ImagePipeline {
    /// Reads `data`'s format (by the configuration's decoders) and header once.
    public func readHeader(of data: Data) throws(ImageError) -> HeldImageData {
        let decoder = try configuration.decoders.decoderAndFormat(of: data).0
        return HeldImageData(data: data, decoder: decoder, header: try ImageDecode.header(of: data, decoder: decoder, releasingInput: nil))
    }

    /// The image of bytes in hand: decoded at `target` (checked against the configuration's
    /// limits, with its decoders' options), turned upright unless `appliesOrientation` is off,
    /// then `processors` run in order (an animation gets them on every frame).
    ///
    /// No fetch, no cache (neither disk nor memory), and no stage shared with other requests:
    /// the work runs on the calling task, whose caller bounds how many run at once (the image
    /// service's render slots). Cancelling the task stops the processors between steps.
    public func image(
        decoding held: HeldImageData, target: DecodeTarget?, appliesOrientation: Bool,
        processors: [any ImageProcessing]
    ) async throws(ImageError) -> LoadedImage {
        let options = DecodeOptions(target: target, appliesOrientation: appliesOrientation, limits: configuration.limits)
        let decoded = try configuration.decoders.decode(
            held.data, options: options, releasingInput: nil, found: held.decoder, header: held.header)
        return try decoded.applying(processors).get()
    }
}
