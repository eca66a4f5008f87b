#if canImport(CWebP)
import CWebP
import Foundation

/// The frames of an animated WebP for an ``Animation``: the demuxer's walk lists them (see
/// ``WebPAnimationStructure``), and each frame's bitstream is decoded by libwebp on demand into
/// premultiplied RGBA.
///
/// Composition follows the WebP container specification as browsers apply it: the canvas
/// starts transparent black and "dispose to background" clears to transparent black (the ANIM
/// background colour is only a hint, and is ignored), alpha-blended frames are composited over
/// the canvas while "do not blend" frames replace it, frames are clipped to the canvas, and the
/// loop count is the number of plays (0 forever).
struct WebPFrameReader: AnimationFramePixelReader {
    let data: Data
    let bitstreams: [Range<Int>]

    var encodedByteCount: Int { data.count }

    /// The animation in `data`; its first frame cut short or broken throws.
    static func source(_ data: Data, limits: DecodingLimits) throws(ImageError) -> ComposedAnimationSource {
        let walk = try WebPAnimationStructure.walk(data, limits: limits)
        let canvas = walk.info.canvas
        try limits.check(width: canvas.width, height: canvas.height, format: .webp)
        guard !walk.frames.isEmpty else {
            throw WebPDecoder.error(for: VP8_STATUS_NOT_ENOUGH_DATA, data: data)
        }
        return ComposedAnimationSource(
            canvas: canvas, frames: walk.frames, loopCount: walk.info.loopCount,
            reader: WebPFrameReader(data: data, bitstreams: walk.bitstreams))
    }

    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels {
        let range = bitstreams[index]
        let frameData = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .decodingFailed(format: .webp, reason: "libwebp version mismatch")
        }
        let status = frameData.withUnsafeBytes { bytes in
            WebPGetFeatures(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config.input)
        }
        guard status == VP8_STATUS_OK else { throw WebPDecoder.error(for: status, data: data) }
        let width = Int(config.input.width), height = Int(config.input.height)
        var pixels = FramePixels(width: width, height: height, bytes: [UInt8](repeating: 0, count: width * height * 4))
        config.output.colorspace = MODE_rgbA
        config.output.is_external_memory = 1
        let decoded: VP8StatusCode = pixels.bytes.withUnsafeMutableBytes { buffer in
            config.output.u.RGBA.rgba = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = buffer.count
            let status = frameData.withUnsafeBytes { bytes in
                WebPDecode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            }
            WebPFreeDecBuffer(&config.output)
            return status
        }
        guard decoded == VP8_STATUS_OK else { throw WebPDecoder.error(for: decoded, data: data) }
        return pixels
    }
}
#endif
