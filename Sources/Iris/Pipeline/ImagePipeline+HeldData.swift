import Foundation

/// Encoded bytes a caller already holds, with what was read from them: the decoder that reads
/// them and their header (EXIF orientation included), for a caller that decides from the header
/// (limits, an output format, a validator) before rendering them with
/// ``ImagePipeline/image(decoding:target:appliesOrientation:processors:priority:)``. The bytes are
/// not fetched or cached again. The render reads the header once more (a fraction of a
/// millisecond): decoding with the header read here measured slower (a 2048×1536 WebP at 512 px:
/// 38.2 against 33.5 ms, median of 20), for a reason not yet found.
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
    /// No fetch, no cache (neither disk nor memory), and no stage shared with other requests.
    /// The work runs on a task of its own at `priority`, as a pipeline's decode and processing
    /// jobs do; its caller bounds how many run at once (the image service's render slots).
    /// Cancelling the caller cancels it, and the processors stop between steps.
    public func image(
        decoding held: HeldImageData, target: DecodeTarget?, appliesOrientation: Bool,
        processors: [any ImageProcessing], priority: ImageRequest.Priority = .normal
    ) async throws(ImageError) -> LoadedImage {
        let options = DecodeOptions(target: target, appliesOrientation: appliesOrientation, limits: configuration.limits)
        let decoders = configuration.decoders
        let work = Task.detached(priority: priority.taskPriority) { () -> Result<LoadedImage, ImageError> in
            do throws(ImageError) {
                let decoded = try decoders.decode(
                    held.data, options: options, releasingInput: nil)
                return decoded.applying(processors)
            } catch {
                return .failure(error)
            }
        }
        return try await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }.get()
    }
}
