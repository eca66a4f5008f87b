import Foundation

/// Picks a decoder by sniffed format and runs a decode: limits, target size, orientation.
public struct ImageDecoderRegistry: Sendable {
    /// Decoders, first match wins.
    public var decoders: [any ImageDecoding]
    /// Decode every image with ``DecodeOptions/keepsStraightAlpha`` set, whatever the options
    /// say: for a pipeline whose images are re-encoded rather than shown (`iris convert`).
    public var keepsStraightAlpha = false
    /// What decodes do with embedded colour profiles when their options do not say
    /// (``DecodeOptions/colorManagement`` `nil`), as a pipeline's decodes don't: a pipeline
    /// configured with a registry set to ``ColorManagement/keepSource`` keeps every source's
    /// colour space. ``ColorManagement/platformDefault`` unless set.
    public var colorManagement: ColorManagement = .platformDefault
    /// Which frame of a video stands for it as a still: the first that is not black (the
    /// default), or the frame at a time (`iris thumbnail --at`).
    package var videoPoster: VideoPoster = .firstNonBlack
    /// Whether an animated file comes with its ``LoadedImage/animation``; when not, only the
    /// still is decoded (the first frame, or a video's poster), without walking the frames: for
    /// a caller that writes stills (`iris thumbnail` without `--animated`).
    package var decodesAnimations = true

    /// Makes a registry of `decoders`.
    public init(decoders: [any ImageDecoding]) { self.decoders = decoders }

    /// Adds `decoder` ahead of the others: it is asked first to recognise a file, and wins for
    /// the formats it reads.
    public mutating func register(_ decoder: any ImageDecoding) { decoders.insert(decoder, at: 0) }

    /// The platform's decoders: the C libraries where they can be imported (Linux), ImageIO on
    /// Apple platforms.
    public static let standard = ImageDecoderRegistry(decoders: PlatformCodecs.decoders)

    /// The decoder for `format`, if any.
    public func decoder(for format: ImageFormat) -> (any ImageDecoding)? {
        decoders.first { $0.formats.contains(format) }
    }

    /// The format of `data`: by the first decoder that recognises it by its own rule, else by
    /// Iris's sniffer (``ImageFormat/unknown`` when nothing matches).
    public func format(of data: Data) -> ImageFormat {
        for decoder in decoders { if let format = decoder.format(of: data) { return format } }
        return FormatSniffer.format(of: data)
    }

    /// Reads the header of `data`: format, stored size, alpha, frames and EXIF orientation.
    public func header(of data: Data) throws(ImageError) -> ImageHeader {
        let (_, header) = try decoderAndHeader(for: data, releasingInput: nil)
        return header
    }

    /// Decodes `data`: checks limits from the header, shrinks to `options.target` while
    /// decoding, then applies orientation.
    ///
    /// An animation (GIF, APNG, animated WebP with more than one frame, or an APNG of one
    /// frame, see ``ImageHeader/isAnimated``) comes back with its
    /// ``LoadedImage/animation`` set: frames are composed on demand on the full canvas and
    /// shrunk to the same target; ``LoadedImage/bitmap`` is frame 0. EXIF orientation does not
    /// apply to animations.
    public func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(ImageError) -> LoadedImage {
        try decode(data, options: options, releasingInput: nil)
    }

    /// Decodes the file at `url` like ``decode(_:options:)``, without reading it into memory:
    /// the file is mapped, and a streaming decoder (PNG) gives back the pages it has read, so a
    /// 100 MB PNG thumbnailed to 300 px keeps only a few megabytes of the file resident.
    public func decode(contentsOf url: URL, options: DecodeOptions = DecodeOptions()) throws(ImageError) -> LoadedImage {
        let file = try MappedFile(url)
        return try decode(file.data, options: options, releasingInput: { file.releasePages(before: $0) })
    }

    /// The decode itself; `found` is the decoder and format of `data` when the caller has
    /// already sniffed them (``decodeAwaiting(_:options:)``), so they are not looked for twice,
    /// and `known` its header when the caller has read it too (``ImagePipeline/image(decoding:target:appliesOrientation:processors:)``).
    func decode(
        _ data: Data, options: DecodeOptions, releasingInput: (@Sendable (Int) -> Void)?,
        found: (any ImageDecoding, ImageFormat)? = nil, header known: ImageHeader? = nil
    ) throws(ImageError) -> LoadedImage {
        var options = effective(options)
        let (decoder, header) = try decoderAndHeader(for: data, releasingInput: releasingInput, found: found, header: known)
        try options.limits.check(header)
        options.posterTime = Self.posterTime(for: header.format)
        // An animation of one frame (an APNG whose header says so) plays as one too: its frame
        // has a duration, and may not be the default image a still decoder shows. A video over
        // the frame limit is its poster alone (``DecodingLimits/check(_:)``).
        if header.isAnimated, !options.allowsPartialData, decodesAnimations, header.frameCount <= options.limits.maxFrames,
            let source = try decoder.animationSource(for: data, limits: options.limits),
            source.frameCount > 1 || (source.frameCount == 1 && header.frameCount == 1)
        {
            var image = try decodeAnimation(source, header: header, data: data, options: options)
            image.video = Self.video(data, header: header, options: options)
            return image
        }
        var context = try stillContext(header: header, options: options)
        context.releaseConsumedInput = releasingInput
        return finishStill(try decoder.decode(data, context: context), data: data, context: context)
    }

    /// `options` with what this registry decides for every decode: straight alpha, the colour
    /// management, the video poster.
    func effective(_ options: DecodeOptions) -> DecodeOptions {
        var options = options
        options.keepsStraightAlpha = options.keepsStraightAlpha || keepsStraightAlpha
        options.colorManagement = options.colorManagement ?? colorManagement  // what the decoder (and an animation) sees
        options.videoPoster = videoPoster
        return options
    }

    /// The decode of a still: the target applied to the shown (oriented) size, turned back to
    /// the stored orientation the decoder produces, within the decoded-bytes limit.
    func stillContext(header: ImageHeader, options: DecodeOptions) throws(ImageError) -> DecodeContext {
        let orientation = options.appliesOrientation ? header.orientation : .up
        let shownSource = orientation.swapsDimensions ? header.storedSize.transposed : header.storedSize
        let shownOutput = options.target?.outputSize(for: shownSource) ?? shownSource
        let storedOutput = orientation.swapsDimensions ? shownOutput.transposed : shownOutput
        let (bytes, overflow) = storedOutput.pixelCount.multipliedReportingOverflow(by: 4)
        try options.limits.check(decodedBytes: overflow ? .max : bytes)
        return DecodeContext(header: header, outputSize: storedOutput, options: options)
    }

    /// A decoded still made what the caller gets: its colour converted (at the output size,
    /// before orientation: the least work), turned upright, with the clip of a video.
    func finishStill(_ decoded: Bitmap, data: Data, context: DecodeContext) -> LoadedImage {
        let header = context.header
        let options = context.options
        let orientation = options.appliesOrientation ? header.orientation : .up
        var bitmap = (options.colorManagement ?? colorManagement).apply(to: decoded)
        if orientation != .up { bitmap = bitmap.oriented(orientation) }
        return LoadedImage(
            bitmap: bitmap, format: header.format, sourceSize: header.orientedSize,
            orientation: header.orientation, isPreview: options.allowsPartialData,
            video: Self.video(data, header: header, options: options))
    }

    /// The clip a video's poster stands for, kept with it so that a view can play it; `nil` for
    /// an image, and for a preview of data still arriving.
    private static func video(_ data: Data, header: ImageHeader, options: DecodeOptions) -> EncodedVideo? {
        guard ImageFormat.videoFormats.contains(header.format), !options.allowsPartialData else { return nil }
        return EncodedVideo(data: data, format: header.format, posterSeconds: options.posterTime.seconds)
    }

    /// Where a video's decoder writes its poster's time; nowhere for an image.
    static func posterTime(for format: ImageFormat) -> VideoPosterTime {
        ImageFormat.videoFormats.contains(format) ? .recording() : .none
    }

    /// Frame 0 of `source` at the target, and the lazy animation of all its frames.
    private func decodeAnimation(
        _ source: any AnimationFrameSource, header: ImageHeader, data: Data,
        options: DecodeOptions
    ) throws(ImageError) -> LoadedImage {
        var source = source
        // Every frame in the file's declared colour space, converted or kept as asked.
        if let space = EmbeddedColorSpace.ofAnimation(data, format: header.format), !space.isSRGB {
            source = ColorManagedAnimationSource(
                base: source, colorSpace: space,
                management: options.colorManagement ?? colorManagement)
        }
        let canvas = source.canvas
        try options.limits.check(width: canvas.width, height: canvas.height, format: header.format)
        let output = options.target?.outputSize(for: canvas) ?? canvas
        let (bytes, overflow) = output.pixelCount.multipliedReportingOverflow(by: 4)
        try options.limits.check(decodedBytes: overflow ? .max : bytes)
        // The decoder for frame 0 is let go: a still shown from the cache holds no canvas; the
        // animation makes its own when it is played.
        let first = try source.makeDecoder(frameSize: output, kernel: options.kernel).nextFrame()
        let animation = Animation(
            source: source, frameSize: output, kernel: options.kernel,
            bufferBytes: options.animationBufferBytes, first: first)
        // The still is frame 0 unless the source picks another (a video's poster).
        let still = try source.posterFrame(frameSize: output, first: first, options: options) ?? first
        return LoadedImage(bitmap: still, animation: animation, format: header.format, sourceSize: canvas)
    }

    /// The decoder of `data` and its header, EXIF orientation included (`known`, when given).
    func decoderAndHeader(
        for data: Data, releasingInput: ((Int) -> Void)?,
        found: (any ImageDecoding, ImageFormat)? = nil, header known: ImageHeader? = nil
    ) throws(ImageError) -> (any ImageDecoding, ImageHeader) {
        let (decoder, format): (any ImageDecoding, ImageFormat)
        if let found { (decoder, format) = found } else { (decoder, format) = try decoderAndFormat(of: data) }
        if let known { return (decoder, known) }
        var header = try decoder.readHeader(data)
        header.orientation = EXIFReader.orientation(in: data, format: format, releasingInput: releasingInput) ?? .up
        return (decoder, header)
    }

    /// The format of `data` and its decoder.
    func decoderAndFormat(of data: Data) throws(ImageError) -> (any ImageDecoding, ImageFormat) {
        guard !data.isEmpty else { throw .emptyData }
        let format = format(of: data)
        guard let decoder = decoder(for: format) else { throw .unsupportedFormat(format) }
        return (decoder, format)
    }
}
