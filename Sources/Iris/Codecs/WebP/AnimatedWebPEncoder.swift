#if canImport(CWebP)
import CWebP
import Foundation

/// Encodes an ``Animation`` as an animated WebP with libwebp's animation encoder: every frame
/// with its duration, and the loop count.
///
/// Frames are pulled from the animation one at a time and handed to libwebp at once, so a lazy
/// animation is never held whole. Lossy at ``EncodeOptions/quality``, or lossless when
/// ``EncodeOptions/lossless`` is set; libwebp stores only what changes between frames.
struct AnimatedWebPEncoder: AnimationEncoding {
    /// Makes an encoder.
    init() {}

    /// WebP.
    var format: ImageFormat { .webp }

    /// The animated WebP of `animation`.
    func encode(_ animation: Animation, options: EncodeOptions) async throws(ImageError) -> Data {
        guard animation.frameCount > 0 else { throw Self.failure("the animation has no frames") }
        let first = try await animation.frame(at: 0)
        let session = try AnimatedWebPSession(size: first.size, loopCount: animation.loopCount, options: options)
        var timestamp = 0
        for index in 0..<animation.frameCount {
            let frame = index == 0 ? first : try await animation.frame(at: index)
            try session.add(frame, timestampMilliseconds: timestamp)
            timestamp += max(1, Int((animation.displayDuration(at: index) * 1000).rounded()))
        }
        return try session.finish(timestampMilliseconds: timestamp)
    }

    static func failure(_ reason: String) -> ImageError { .encodingFailed(format: .webp, reason: reason) }
}

/// One libwebp animation encoder, from the first frame to the assembled file.
private final class AnimatedWebPSession {
    private let encoder: OpaquePointer
    private let size: PixelSize
    private var config = WebPConfig()

    init(size: PixelSize, loopCount: Int, options: EncodeOptions) throws(ImageError) {
        guard size.width > 0, size.height > 0, size.width <= WebPEncoder.maxDimension, size.height <= WebPEncoder.maxDimension else {
            throw AnimatedWebPEncoder.failure("\(size) cannot be a WebP animation (1 to \(WebPEncoder.maxDimension) pixels a side)")
        }
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0, WebPConfigInit(&config) != 0 else {
            throw AnimatedWebPEncoder.failure("libwebp's options could not be set up")
        }
        encoderOptions.anim_params.loop_count = Int32(clamping: loopCount)
        config.lossless = options.lossless ? 1 : 0
        config.quality = Float(min(max(options.quality, 0), 100))
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &encoderOptions) else {
            throw AnimatedWebPEncoder.failure("libwebp could not start an animation of \(size)")
        }
        self.encoder = encoder
        self.size = size
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds `frame` (premultiplied, any layout) shown from `timestampMilliseconds`.
    func add(_ frame: Bitmap, timestampMilliseconds: Int) throws(ImageError) {
        guard frame.size == size else {
            throw AnimatedWebPEncoder.failure("frame is \(frame.size), the animation \(size)")
        }
        var straight = frame.premultiplied().converted(to: frame.format.isBlueFirst ? .bgra8 : .rgba8)
        let (stride, width, height) = (straight.bytesPerRow, straight.width, straight.height)
        straight.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                PixelConversion.unpremultiplyRGBA(
                    UnsafeMutableRawBufferPointer(rebasing: bytes[(y * stride)..<((y + 1) * stride)]),
                    pixelCount: width)
            }
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw AnimatedWebPEncoder.failure("libwebp could not make a picture") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        let imported = straight.withUnsafeBytes { bytes in
            let pixels = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return straight.format.isBlueFirst
                ? WebPPictureImportBGRA(&picture, pixels, Int32(stride))
                : WebPPictureImportRGBA(&picture, pixels, Int32(stride))
        }
        guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestampMilliseconds), &config) != 0 else {
            throw AnimatedWebPEncoder.failure("libwebp could not add a frame at \(timestampMilliseconds) ms")
        }
    }

    /// Ends the animation at `timestampMilliseconds` and returns the file.
    func finish(timestampMilliseconds: Int) throws(ImageError) -> Data {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestampMilliseconds), nil) != 0 else {
            throw AnimatedWebPEncoder.failure("libwebp could not end the animation")
        }
        var assembled = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &assembled) != 0, let bytes = assembled.bytes else {
            throw AnimatedWebPEncoder.failure("libwebp could not assemble the animation")
        }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: bytes, count: assembled.size)
    }
}
#endif
