#if canImport(CWebP)
import CWebP
import Foundation

/// Decodes WebP with libwebp: lossy, lossless and with alpha; the first frame of an animation.
///
/// A still image is shrunk while decoding with libwebp's own scaled decoding (its area-averaging
/// rescaler runs on each row as it is decoded), straight to `context.outputSize`: the full-size image
/// is never held. The context's kernel does not apply to it. Shrinking by half or more skips
/// libwebp's smooth chroma upsampling, and by four or more its deblocking filter: the averaging
/// over 2×2 (4×4) source pixels per output pixel blurs away what they would add.
///
/// An animated WebP's first frame is composed on its canvas (see ``WebPFrameReader``) and
/// shrunk to `context.outputSize`.
///
/// Output is premultiplied ``PixelFormat/rgba8`` when the image has alpha (straight, as stored,
/// for a still image decoded at its stored size with ``DecodeOptions/keepsStraightAlpha``),
/// ``PixelFormat/rgbx8`` otherwise, tagged with the `ICCP` chunk's profile when there is one.
struct WebPDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// Source size from which a still image is decoded with libwebp's worker thread.
    static let threadedDecodePixels = 1_000_000

    /// WebP only.
    var formats: Set<ImageFormat> { [.webp] }

    /// The frames of an animated WebP, composed on demand (``WebPFrameReader``), in the colour
    /// space of its `ICCP` chunk (an RGB profile; none is sRGB).
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        var source = try WebPFrameReader.source(data, limits: limits)
        source.declaredColorSpace = WebPICCProfile.profile(in: data).flatMap { $0.colorModel == .rgb ? .icc($0) : nil }
        return source
    }

    /// The orientation of the `EXIF` chunk.
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        EXIFReader.orientation(inWebP: data)
    }

    /// Reads size, alpha and (for animations) the frame count.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let features = try Self.features(of: data)
        var header = ImageHeader(
            format: .webp, width: Int(features.width), height: Int(features.height),
            hasAlpha: features.has_alpha != 0)
        if features.has_animation != 0 {
            let info = try WebPAnimationStructure.info(of: data)
            header.width = info.canvas.width
            header.height = info.canvas.height
            header.frameCount = info.frameCount
            header.hasAlpha = true
        }
        guard header.width > 0, header.height > 0 else {
            throw .invalidDimensions(format: .webp, width: header.width, height: header.height)
        }
        return header
    }

    /// Decodes the first frame at exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let features = try Self.features(of: data)
        try context.options.limits.check(width: context.header.width, height: context.header.height, format: .webp)
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .webp, reason: "the requested output size \(output) is empty")
        }
        let source = PixelSize(width: Int(features.width), height: Int(features.height))
        let keepsStraight =
            features.has_animation == 0 && features.has_alpha != 0 && context.options.keepsStraightAlpha
            && output == source
        var bitmap =
            features.has_animation != 0
            ? try WebPAnimationStructure.firstFrame(of: data, context: context)
            : try Self.decodeStill(data, hasAlpha: features.has_alpha != 0, straight: keepsStraight, source: source, output: output)
        if keepsStraight { bitmap = bitmap.markedStraight() }
        // The ICCP chunk's profile tags the pixels (the registry converts them if asked).
        if let profile = WebPICCProfile.profile(in: data), profile.colorModel == .rgb {
            bitmap.colorSpace = .icc(profile)
        }
        return bitmap
    }

    // MARK: - Still images

    private static func decodeStill(
        _ data: Data, hasAlpha: Bool, straight: Bool, source: PixelSize, output: PixelSize
    ) throws(ImageError) -> Bitmap {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .decodingFailed(format: .webp, reason: "libwebp version mismatch")
        }
        if output != source {
            // Shrinking by half or more averages chroma anyway: skip the smooth upsampling.
            if output.width * 2 <= source.width && output.height * 2 <= source.height {
                config.options.no_fancy_upsampling = 1
            }
            // Shrinking by four or more averages 4×4 blocks and more per output pixel, which
            // hides the block edges the in-loop deblocking filter smooths: skip the filter.
            if output.width * 4 <= source.width && output.height * 4 <= source.height {
                config.options.bypass_filtering = 1
            }
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(output.width)
            config.options.scaled_height = Int32(output.height)
        }
        // From a megapixel up, libwebp's worker thread finishes rows (filter, colour conversion,
        // rescaling) while the next ones are decoded: about 10% off the wall-clock time.
        if source.pixelCount >= Self.threadedDecodePixels { config.options.use_threads = 1 }
        let format: PixelFormat = hasAlpha ? .rgba8 : .rgbx8
        // Opaque images decode as RGBA with alpha 255, which is what rgbx8 stores.
        // (MODE_rgbA premultiplies; MODE_RGBA leaves alpha straight.)
        config.output.colorspace = hasAlpha && !straight ? MODE_rgbA : MODE_RGBA
        config.output.is_external_memory = 1
        var bitmap = Bitmap(width: output.width, height: output.height, format: format)
        let stride = bitmap.bytesPerRow
        let status: VP8StatusCode = bitmap.withUnsafeMutableBytes { pixels in
            config.output.u.RGBA.rgba = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = pixels.count
            let status = data.withUnsafeBytes { bytes in
                WebPDecode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            }
            WebPFreeDecBuffer(&config.output)
            return status
        }
        guard status == VP8_STATUS_OK else { throw error(for: status, data: data) }
        return bitmap
    }

    // MARK: - Header and errors

    /// libwebp's bitstream features, or the error the data deserves.
    static func features(of data: Data) throws(ImageError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { bytes in
            WebPGetFeatures(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        }
        guard status == VP8_STATUS_OK else { throw error(for: status, data: data) }
        return features
    }

    /// The ``ImageError`` for a libwebp status: short data is truncation (the RIFF header tells
    /// the full length), everything else a decoding failure with libwebp's reason.
    static func error(for status: VP8StatusCode, data: Data) -> ImageError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return .truncated(format: .webp, received: data.count, expected: riffLength(of: data))
        case VP8_STATUS_OUT_OF_MEMORY:
            return .decodingFailed(format: .webp, reason: "out of memory")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return .decodingFailed(format: .webp, reason: "the bitstream uses a feature libwebp does not support")
        case VP8_STATUS_INVALID_PARAM:
            return .decodingFailed(format: .webp, reason: "invalid parameters")
        default:
            if let expected = riffLength(of: data), expected > data.count {
                return .truncated(format: .webp, received: data.count, expected: expected)
            }
            return .decodingFailed(format: .webp, reason: "the bitstream is corrupt")
        }
    }

    /// The file length the RIFF header states (its size field + 8), if readable.
    static func riffLength(of data: Data) -> Int? {
        guard data.count >= 12 else { return nil }
        let start = data.startIndex
        let size = (4..<8).reduce(0) { $0 | Int(data[start + $1]) << (8 * ($1 - 4)) }
        return size + 8
    }
}
#endif
