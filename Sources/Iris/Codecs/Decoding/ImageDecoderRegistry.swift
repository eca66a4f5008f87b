import Foundation

/// Finds the decoder for a file: the decoders, first match wins, and the format each file is in.
///
/// The registry only finds. A decode (``decode(_:options:)``, in `ImageDecode.swift`) asks the
/// decoder it finds for its format's answers (header, orientation, animation, video) and
/// applies the rules every format shares once each: limits (``DecodingLimits``), the target,
/// colour management (``ColorManagement``) and orientation. The four settings below are those
/// rules' defaults for every decode the registry runs.
public struct ImageDecoderRegistry: Sendable {
    /// Decoders, first match wins. Each decoder's ``ImageDecoding/formats`` are read when it is
    /// added.
    public var decoders: [any ImageDecoding] {
        didSet { decoderByFormat = Self.index(decoders) }
    }
    /// For each format some decoder reads, the first such decoder.
    private var decoderByFormat: [ImageFormat: any ImageDecoding]
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
    public var videoPoster: VideoPoster = .firstNonBlack
    /// Whether an animated file comes with its ``LoadedImage/animation``; when not, only the
    /// still is decoded (the first frame, or a video's poster), without walking the frames: for
    /// a caller that writes stills (`iris thumbnail` without `--animated`).
    public var decodesAnimations = true

    /// Makes a registry of `decoders`.
    public init(decoders: [any ImageDecoding]) {
        self.decoders = decoders
        decoderByFormat = Self.index(decoders)
    }

    /// The first decoder of each format.
    private static func index(_ decoders: [any ImageDecoding]) -> [ImageFormat: any ImageDecoding] {
        var index: [ImageFormat: any ImageDecoding] = [:]
        for decoder in decoders {
            for format in decoder.formats where index[format] == nil { index[format] = decoder }
        }
        return index
    }

    /// Adds `decoder` ahead of the others: it is asked first to recognise a file, and wins for
    /// the formats it reads.
    public mutating func register(_ decoder: any ImageDecoding) { decoders.insert(decoder, at: 0) }

    /// The platform's decoders: the C libraries where they can be imported (Linux), ImageIO on
    /// Apple platforms.
    public static let standard = ImageDecoderRegistry(decoders: PlatformCodecs.decoders)

    /// The decoder for `format`, if any.
    public func decoder(for format: ImageFormat) -> (any ImageDecoding)? {
        decoderByFormat[format]
    }

    /// The format of `data`: by Iris's sniffer when it knows the format and a decoder reads it
    /// (only that decoder is asked anything), else by the first decoder that recognises it by its
    /// own rule (``ImageDecoding/format(of:)``: a video container, a format of a plug-in), else
    /// what the sniffer said (``ImageFormat/unknown`` when nothing matches).
    public func format(of data: Data) -> ImageFormat {
        let sniffed = FormatSniffer.format(of: data)
        if sniffed != .unknown, decoderByFormat[sniffed] != nil { return sniffed }
        for decoder in decoders { if let format = decoder.format(of: data) { return format } }
        return sniffed
    }

    /// The format of `data` and its decoder.
    func decoderAndFormat(of data: Data) throws(ImageError) -> (any ImageDecoding, ImageFormat) {
        guard !data.isEmpty else { throw .emptyData }
        let format = format(of: data)
        guard let decoder = decoder(for: format) else { throw .unsupportedFormat(format) }
        return (decoder, format)
    }

    /// Whether any decoder's work is asynchronous (none on Linux).
    var hasAsyncDecoder: Bool { decoders.contains { $0 is any AsyncImageDecoding } }
}
