import Foundation

extension ImageDecoderRegistry {
    /// Reads the header of `data`: format, stored size, alpha, frames and EXIF orientation.
    public func header(of data: Data) throws(ImageError) -> ImageHeader {
        try ImageDecode.header(of: data, decoder: try decoderAndFormat(of: data).0, releasingInput: nil)
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

    /// The decode itself; `found` is the decoder of `data` when the caller has already sniffed
    /// its format (``decodeAwaiting(_:options:)``), so it is not looked for twice.
    func decode(
        _ data: Data, options: DecodeOptions, releasingInput: (@Sendable (Int) -> Void)?,
        found: (any ImageDecoding)? = nil
    ) throws(ImageError) -> LoadedImage {
        let decoder: any ImageDecoding
        if let found { decoder = found } else { decoder = try decoderAndFormat(of: data).0 }
        return try makeDecode(of: data, options: options, releasingInput: releasingInput).run(decoder)
    }

    /// A decode of `data` with this registry's settings applied to `options` where they do not
    /// say otherwise: straight alpha, colour management, the video poster, animations.
    func makeDecode(
        of data: Data, options: DecodeOptions, releasingInput: (@Sendable (Int) -> Void)?
    ) -> ImageDecode {
        var options = options
        options.keepsStraightAlpha = options.keepsStraightAlpha || keepsStraightAlpha
        options.colorManagement = options.colorManagement ?? colorManagement
        options.videoPoster = videoPoster
        return ImageDecode(data: data, options: options, decodesAnimations: decodesAnimations, releasingInput: releasingInput)
    }
}

/// One decode of an image's data: the decoder's answers for its format (header, orientation,
/// pixels, frames, whether it is a video) put together under the rules every format shares,
/// each applied here once: the limits, the target, colour management and orientation.
struct ImageDecode: Sendable {
    /// The encoded image.
    let data: Data
    /// The decode's options, the registry's settings applied (colour management always set).
    let options: DecodeOptions
    /// Whether an animated file comes with its animation (else its still alone).
    let decodesAnimations: Bool
    /// Told how far a walk over a mapped file has read, so its pages can be given back.
    let releasingInput: (@Sendable (Int) -> Void)?

    /// The colour management the decode applies.
    var colorManagement: ColorManagement { options.colorManagement ?? .platformDefault }

    /// `decoder`'s header of `data`, with the orientation its container stores.
    static func header(
        of data: Data, decoder: any ImageDecoding, releasingInput: ((Int) -> Void)?
    ) throws(ImageError) -> ImageHeader {
        var header = try decoder.readHeader(data)
        header.orientation = decoder.orientation(in: data, releasingInput: releasingInput) ?? .up
        return header
    }

    /// Decodes with `decoder`: the header checked against the limits, then the animation (when
    /// the file plays as one) or the still.
    func run(_ decoder: any ImageDecoding) throws(ImageError) -> LoadedImage {
        try run(decoder, header: try Self.header(of: data, decoder: decoder, releasingInput: releasingInput))
    }

    /// Decodes with `decoder` and the `header` it has read from ``data`` already
    /// (``header(of:decoder:releasingInput:)``), which is not read again.
    func run(_ decoder: any ImageDecoding, header: ImageHeader) throws(ImageError) -> LoadedImage {
        let options = try checked(header)
        // An animation of one frame (an APNG whose header says so) plays as one too: its frame
        // has a duration, and may not be the default image a still decoder shows. A video over
        // the frame limit is its poster alone (``DecodingLimits/check(_:)``).
        if header.isAnimated, !options.allowsPartialData, decodesAnimations, header.frameCount <= options.limits.maxFrames,
            let source = try decoder.animationSource(for: data, limits: options.limits),
            source.frameCount > 1 || (source.frameCount == 1 && header.frameCount == 1)
        {
            return try animation(source, header: header, options: options)
        }
        var context = try stillContext(header: header, options: options)
        context.releaseConsumedInput = releasingInput
        if let poster = decoder as? any PosterDecoding {
            let still = try poster.decodePoster(data, context: context)
            return finishStill(still.bitmap, posterSeconds: still.posterSeconds, context: context)
        }
        return finishStill(try decoder.decode(data, context: context), context: context)
    }

    /// The options for a file with `header`, once the limits allow it.
    func checked(_ header: ImageHeader) throws(ImageError) -> DecodeOptions {
        try options.limits.check(header)
        return options
    }

    /// The decode of a still: the target applied to the shown (oriented) size, turned back to
    /// the stored orientation the decoder produces, within the decoded-bytes limit.
    func stillContext(header: ImageHeader, options: DecodeOptions) throws(ImageError) -> DecodeContext {
        let orientation = options.appliesOrientation ? header.orientation : .up
        let shownSource = orientation.swapsDimensions ? header.storedSize.transposed : header.storedSize
        let shownOutput = options.target?.outputSize(for: shownSource) ?? shownSource
        let storedOutput = orientation.swapsDimensions ? shownOutput.transposed : shownOutput
        try options.limits.check(decodedSize: storedOutput)
        return DecodeContext(header: header, outputSize: storedOutput, options: options)
    }

    /// A decoded still made what the caller gets: its colour converted (at the output size,
    /// before orientation: the least work), turned upright, with the clip of a video (whose
    /// poster is the frame `posterSeconds` into it).
    func finishStill(_ decoded: Bitmap, posterSeconds: Double = 0, context: DecodeContext) -> LoadedImage {
        let header = context.header
        let orientation = context.options.appliesOrientation ? header.orientation : .up
        var bitmap = colorManagement.apply(to: decoded)
        if orientation != .up { bitmap = bitmap.oriented(orientation) }
        return LoadedImage(
            bitmap: bitmap, format: header.format, sourceSize: header.orientedSize,
            orientation: header.orientation, isPreview: context.options.allowsPartialData,
            video: video(header: header, options: context.options, posterSeconds: posterSeconds))
    }

    /// The clip a video's poster stands for, kept with it so that a view can play it from the
    /// poster's frame; `nil` for an image, and for a preview of data still arriving.
    private func video(header: ImageHeader, options: DecodeOptions, posterSeconds: Double) -> EncodedVideo? {
        guard header.isVideo, !options.allowsPartialData else { return nil }
        return EncodedVideo(data: data, format: header.format, posterSeconds: posterSeconds)
    }

    /// Frame 0 of `source` at the target, and the lazy animation of all its frames.
    private func animation(
        _ source: any AnimationFrameSource, header: ImageHeader, options: DecodeOptions
    ) throws(ImageError) -> LoadedImage {
        var source = source
        // Every frame in the file's declared colour space, converted or kept as asked.
        if let space = source.declaredColorSpace, !space.isSRGB {
            source = ColorManagedAnimationSource(base: source, colorSpace: space, management: colorManagement)
        }
        let canvas = source.canvas
        try options.limits.check(width: canvas.width, height: canvas.height, format: header.format)
        let output = options.target?.outputSize(for: canvas) ?? canvas
        try options.limits.check(decodedSize: output)
        // The decoder for frame 0 is let go: a still shown from the cache holds no canvas; the
        // animation makes its own when it is played.
        let first = try source.makeDecoder(frameSize: output, kernel: options.kernel).nextFrame()
        let animation = Animation(
            source: source, frameSize: output, kernel: options.kernel,
            bufferBytes: options.animationBufferBytes, first: first)
        // The still is frame 0 unless the source picks another (a video's poster).
        let poster = try (source as? any PosterFrameSource)?.posterFrame(frameSize: output, first: first, options: options)
        var image = LoadedImage(bitmap: poster?.bitmap ?? first, animation: animation, format: header.format, sourceSize: canvas)
        image.video = video(header: header, options: options, posterSeconds: poster?.posterSeconds ?? 0)
        return image
    }
}
