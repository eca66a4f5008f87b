#if canImport(CPNG)
import CIrisShims
import Foundation

/// The frames of an APNG for an ``Animation``. libpng (Debian's has no APNG support) decodes
/// each frame from a standalone PNG stream made of the file's own pieces: the IHDR with the
/// frame's size, PLTE and tRNS, the frame's data as IDAT chunks, IEND.
///
/// Composition follows the APNG specification: the canvas starts transparent black; a frame
/// is drawn with its blend op (SOURCE replaces, OVER alpha-composites) at its offset, and after
/// it is shown its area is left (NONE), cleared to transparent black (BACKGROUND) or put back
/// as it was (PREVIOUS; on the first frame that is the same as BACKGROUND). A delay
/// denominator of 0 means hundredths. `num_plays` is the loop count (0 forever). Frames are
/// clipped to the canvas rather than rejected. A default image that is not part of the
/// animation (no fcTL before IDAT) is not one of its frames: the animation starts at the first
/// fcTL after it. A file whose sequence numbers are broken has no animation (see
/// ``APNGStructure``).
struct APNGFrameReader: AnimationFramePixelReader {
    let data: Data
    let structure: APNGStructure

    var encodedByteCount: Int { data.count }

    /// The animation in `data`, or `nil` when it is not an APNG with at least one complete
    /// frame. A declared frame count over the limit throws.
    static func source(_ data: Data, limits: DecodingLimits) throws(ImageError) -> ComposedAnimationSource? {
        guard let structure = APNGStructure(data) else { return nil }
        return try source(structure, data: data, limits: limits)
    }

    /// The animation `structure` describes, or `nil` when it has no frame.
    static func source(_ structure: APNGStructure, data: Data, limits: DecodingLimits) throws(ImageError) -> ComposedAnimationSource? {
        guard structure.isAnimated else { return nil }
        try limits.check(frames: structure.declaredFrames)
        let canvas = structure.canvas
        try limits.check(width: canvas.width, height: canvas.height, format: .png)
        var frames: [AnimationFrameInfo] = []
        for frame in structure.frames {
            try limits.check(width: frame.width, height: frame.height, format: .png)
            let denominator = frame.delayDenominator == 0 ? 100 : frame.delayDenominator
            frames.append(
                AnimationFrameInfo(
                    x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                    duration: Double(frame.delayNumerator) / Double(denominator),
                    disposal: frame.disposeOp == 1 ? .background : frame.disposeOp == 2 ? .previous : .none,
                    blend: frame.blendOp == 1 ? .over : .source,
                    isOpaque: structure.isOpaque))
        }
        return ComposedAnimationSource(
            canvas: canvas, frames: frames, loopCount: structure.plays,
            reader: APNGFrameReader(data: data, structure: structure))
    }

    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels {
        let frame = structure.frames[index]
        let stream = self.stream(for: frame)
        return try PNGReader.withReader(stream) { reader throws(ImageError) in
            _ = try reader.readInfo()
            let (rowBytes, _) = try reader.setOutput(IRIS_PNG_OUT_RGBA8)
            let stride = frame.width * 4
            guard rowBytes == stride else {
                throw .decodingFailed(format: .png, reason: "libpng delivers \(rowBytes)-byte rows for frame \(index), expected \(stride)")
            }
            var pixels = FramePixels(
                width: frame.width, height: frame.height,
                bytes: [UInt8](repeating: 0, count: stride * frame.height))
            let status: Result<Void, ImageError> = pixels.bytes.withUnsafeMutableBytes { buffer in
                do throws(ImageError) {
                    try reader.readImage(into: buffer, stride: stride, height: frame.height)
                } catch {
                    return .failure(error)
                }
                for y in 0..<frame.height {
                    let row = UnsafeMutableRawBufferPointer(rebasing: buffer[(y * stride)..<((y + 1) * stride)])
                    PixelConversion.premultiplyRGBA(row, pixelCount: frame.width)
                }
                return .success(())
            }
            try status.get()
            return pixels
        }
    }

    /// A PNG of the frame alone.
    private func stream(for frame: APNGStructure.Frame) -> Data {
        var out = Data(PNGChunks.signature)
        var header = structure.header
        header.replaceSubrange(0..<8, with: Self.be32(frame.width) + Self.be32(frame.height))
        Self.appendChunk("IHDR", header[...], to: &out)
        let base = data.startIndex
        for range in structure.sharedChunks { out.append(data[(base + range.lowerBound)..<(base + range.upperBound)]) }
        for range in frame.data {
            Self.appendChunk("IDAT", data[(base + range.lowerBound)..<(base + range.upperBound)], to: &out)
        }
        Self.appendChunk("IEND", Data(), to: &out)
        return out
    }

    private static func appendChunk<Body: Collection<UInt8>>(_ type: String, _ body: Body, to out: inout Data) {
        out.append(contentsOf: be32(body.count))
        var typed = Data(type.utf8)
        typed.append(contentsOf: body)
        out.append(typed)
        let crc = typed.withUnsafeBytes { CRC32.checksum($0) }
        out.append(contentsOf: be32(Int(crc)))
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ]
    }
}
#endif
