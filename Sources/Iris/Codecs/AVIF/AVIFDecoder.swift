#if canImport(CAVIF)
import CAVIF
import Foundation

/// Decodes AVIF with libavif (AV1 through dav1d or libaom): still images, the first frame of
/// an image sequence (animated AVIF, whose frames ``AVIFAnimationSource`` gives), alpha
/// premultiplied, `irot`/`imir` applied.
///
/// Size: AV1 has no scaled decoding and libavif decodes the full frame (YUV planes); the
/// conversion to RGB runs a strip of rows at a time into Iris's resampler, so the full-size RGB
/// image is never held.
///
/// Orientation: libavif reports `irot` and `imir` and does not apply them; this decoder does,
/// after shrinking, and reports the size as shown with orientation `.up`. EXIF orientation in
/// an AVIF is not applied (the format says `irot`/`imir` rule), so nothing is turned twice.
/// Image sequences are shown as stored.
struct AVIFDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// AVIF.
    var formats: Set<ImageFormat> { [.avif] }

    /// Reads the shown size, alpha and frame count from the file's boxes; no frame is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let parsed: Result<ImageHeader, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try AVIFReader(bytes: bytes)
                let stored = reader.storedSize
                guard stored.width > 0, stored.height > 0 else {
                    throw .invalidDimensions(format: .avif, width: stored.width, height: stored.height)
                }
                let shown = reader.frameCount == 1 && reader.orientation.swapsDimensions ? stored.transposed : stored
                return .success(
                    ImageHeader(
                        format: .avif, width: shown.width, height: shown.height,
                        hasAlpha: reader.hasAlpha, frameCount: max(1, reader.frameCount)))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let header): return header
        case .failure(let error):
            // libavif refuses a claimed size over its cap while parsing: report the claim, so
            // that the registry's limits name it (`overLimit`) before anything is allocated.
            if let claim = AVIFSpatialExtent.claimedSize(in: data) {
                let (pixels, overflow) = claim.width.multipliedReportingOverflow(by: claim.height)
                guard overflow || pixels > AVIFReader.librarySizeLimit || claim.width > 32768 || claim.height > 32768 else { throw error }
                return ImageHeader(format: .avif, width: claim.width, height: claim.height, hasAlpha: false)
            }
            throw error
        }
    }

    /// Decodes the primary image (or the first frame) at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .avif, reason: "the requested output size \(output) is empty")
        }
        let decoded: Result<Bitmap, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try AVIFReader(bytes: bytes, maxPixels: context.options.limits.maxPixels)
                let stored = reader.storedSize
                try context.options.limits.check(width: stored.width, height: stored.height, format: .avif)
                let orientation = reader.frameCount == 1 ? reader.orientation : .up
                try reader.decodeFrame(0)
                guard reader.storedSize == stored else {
                    throw .decodingFailed(format: .avif, reason: "the frame decoded at \(reader.storedSize), the header said \(stored)")
                }
                let storedOutput = orientation.swapsDimensions ? output.transposed : output
                return .success(try reader.bitmap(output: storedOutput, kernel: context.options.kernel).oriented(orientation))
            } catch {
                return .failure(error)
            }
        }
        return try decoded.get()
    }

    /// The frames of an animated AVIF (an image sequence of more than one frame), or `nil`
    /// for a still image.
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        try AVIFAnimationSource.source(data, limits: limits)
    }
}
#endif
