import Foundation

/// Encoded bytes a caller already holds, with their header (EXIF orientation included), for a
/// caller that decides from the header (limits, an output format, a validator) before rendering
/// them with ``ImagePipeline/image(decoding:target:appliesOrientation:processors:)``. The bytes
/// are not fetched or cached again; the render reads the header once more (a fraction of a
/// millisecond): decoding with the header read here measured slower (a 2048×1536 WebP at 512 px:
/// 38.2 against 33.5 ms, median of 20), for a reason not yet found.
public struct HeldImageData: Sendable {
    /// The encoded bytes.
    public let data: Data
    /// Their header.
    public let header: ImageHeader
}

extension ImagePipeline {
    /// Reads `data`'s format (by the configuration's decoders) and header.
    public func readHeader(of data: Data) throws(ImageError) -> HeldImageData {
        let decoder = try configuration.decoders.decoderAndFormat(of: data).0
        return HeldImageData(data: data, header: try ImageDecode.header(of: data, decoder: decoder, releasingInput: nil))
    }

    /// The image of bytes in hand: decoded at `target` (checked against the configuration's
    /// limits, with its decoders' options), turned upright unless `appliesOrientation` is off,
    /// then `processors` run in order (an animation gets them on every frame).
    ///
    /// No fetch, no cache (neither disk nor memory), and no stage shared with other requests:
    /// the work runs on the calling task, whose caller bounds how many run at once. Cancelling
    /// the task stops the processors between steps.
    public func image(
        decoding held: HeldImageData, target: DecodeTarget?, appliesOrientation: Bool,
        processors: [any ImageProcessing]
    ) async throws(ImageError) -> LoadedImage {
        let options = DecodeOptions(target: target, appliesOrientation: appliesOrientation, limits: configuration.limits)
        let decoded = try configuration.decoders.decode(held.data, options: options, releasingInput: nil)
        return try decoded.applying(processors).get()
    }
}
