#if canImport(CWebP)
import CWebP
import Foundation

/// Reads an animated WebP's container with libwebp's demuxer (WebP container specification:
/// VP8X, ANIM, ANMF): canvas, loop count, and each complete frame's placement, timing,
/// disposal, blending and where its bitstream lies in the data. Frames are not decoded here.
///
/// The demuxer is run in its partial mode, so data that ends inside a frame yields the frames
/// before it.
enum WebPAnimationStructure {
    /// What an animation's container says.
    struct Info {
        var canvas: PixelSize
        var frameCount: Int
        var loopCount: Int
    }

    /// The container and its complete frames.
    struct Walk {
        var info: Info
        var frames: [AnimationFrameInfo]
        /// Where each frame's bitstream (ALPH + VP8, or VP8L) lies in the data.
        var bitstreams: [Range<Int>]
    }

    /// Canvas size, complete frames and loop count, from the container alone.
    static func info(of data: Data) throws(ImageError) -> Info {
        try walk(data, limits: nil).info
    }

    /// The first frame, composed on the canvas, at `context.outputSize`.
    static func firstFrame(of data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let source = try WebPFrameReader.source(data, limits: context.options.limits)
        return try source.makeDecoder(frameSize: context.outputSize, kernel: context.options.kernel).nextFrame()
    }

    /// Walks the container. With `limits`, a frame count over the limit throws before the
    /// frames are listed.
    static func walk(_ data: Data, limits: DecodingLimits?) throws(ImageError) -> Walk {
        let result: Result<Walk, ImageError> = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .failure(.emptyData) }
            var webPData = WebPData(bytes: base, size: bytes.count)
            var state = WEBP_DEMUX_PARSING_HEADER
            guard let demux = WebPDemuxPartial(&webPData, &state), state != WEBP_DEMUX_PARSING_HEADER else {
                return .failure(WebPDecoder.error(for: VP8_STATUS_NOT_ENOUGH_DATA, data: data))
            }
            defer { WebPDemuxDelete(demux) }
            let canvas = PixelSize(
                width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
            let declared = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            let loops = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
            do throws(ImageError) {
                try limits?.check(frames: declared)
            } catch {
                return .failure(error)
            }
            var frames: [AnimationFrameInfo] = []
            var bitstreams: [Range<Int>] = []
            var iterator = WebPIterator()
            if declared > 0, WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
                repeat {
                    guard iterator.complete != 0, let fragment = iterator.fragment.bytes else { break }
                    let start = fragment - base
                    bitstreams.append(start..<(start + iterator.fragment.size))
                    frames.append(
                        AnimationFrameInfo(
                            x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                            width: Int(iterator.width), height: Int(iterator.height),
                            duration: Double(iterator.duration) / 1000,
                            disposal: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                            blend: iterator.blend_method == WEBP_MUX_NO_BLEND ? .source : .over,
                            isOpaque: iterator.has_alpha == 0))
                } while WebPDemuxNextFrame(&iterator) != 0
                WebPDemuxReleaseIterator(&iterator)
            }
            let info = Info(canvas: canvas, frameCount: frames.count, loopCount: loops)
            return .success(Walk(info: info, frames: frames, bitstreams: bitstreams))
        }
        return try result.get()
    }
}
#endif
