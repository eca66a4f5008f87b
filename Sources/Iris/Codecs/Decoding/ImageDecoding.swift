import Foundation

/// What a decoder learns from an image's header, without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The container format.
    public var format: ImageFormat
    /// Stored width in pixels (before orientation).
    public var width: Int
    /// Stored height in pixels (before orientation).
    public var height: Int
    /// Whether the image carries an alpha channel or transparency.
    public var hasAlpha: Bool
    /// Number of frames; 1 for a still image.
    public var frameCount: Int
    /// EXIF orientation (``Orientation/up`` when there is none).
    public var orientation: Orientation

    /// Makes a header.
    public init(format: ImageFormat, width: Int, height: Int, hasAlpha: Bool, frameCount: Int = 1, orientation: Orientation = .up) {
        self.format = format
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
        self.orientation = orientation
    }

    /// Stored size (before orientation).
    public var storedSize: PixelSize { PixelSize(width: width, height: height) }

    /// Size as shown upright: width and height exchanged for orientations 5–8.
    public var orientedSize: PixelSize { orientation.swapsDimensions ? storedSize.transposed : storedSize }
}

/// One decode for an ``ImageDecoding``: the header it read and the size it must produce.
public struct DecodeJob: Sendable {
    /// The header the decoder read.
    public var header: ImageHeader
    /// Output size in stored orientation; the decoder must return exactly this size.
    public var outputSize: PixelSize
    /// Kernel for any resampling the decoder does.
    public var kernel: ResamplingKernel
    /// Limits to respect.
    public var limits: DecodingLimits
    /// Return what data that ends early shows instead of failing as truncated, where the codec
    /// can (progressive JPEG previews). Decoders that cannot, ignore it.
    public var allowsPartialData: Bool
    /// Called with how many input bytes the decoder has consumed, when the input is a mapped
    /// file whose read pages can be given back (see ``ImageDecoderRegistry/decode(contentsOf:options:)``).
    var releaseConsumedInput: (@Sendable (Int) -> Void)?

    /// Makes a job.
    public init(header: ImageHeader, outputSize: PixelSize, kernel: ResamplingKernel = .lanczos3,
                limits: DecodingLimits = .default, allowsPartialData: Bool = false) {
        self.header = header
        self.outputSize = outputSize
        self.kernel = kernel
        self.limits = limits
        self.allowsPartialData = allowsPartialData
    }
}

/// A decoder for one or more formats. Implementations throw only ``ImageError``.
public protocol ImageDecoding: Sendable {
    /// The formats this decoder reads.
    var formats: Set<ImageFormat> { get }

    /// Reads size and alpha from the header without decoding pixels.
    /// The returned orientation may be left `.up`; the registry fills it in.
    func readHeader(_ data: Data) throws -> ImageHeader

    /// Decodes the first frame at exactly `job.outputSize` (stored orientation), shrinking
    /// while decoding where the codec can and resampling the rest.
    func decode(_ data: Data, job: DecodeJob) throws -> Bitmap
}

/// Options for ``ImageEncoding``.
public struct EncodeOptions: Sendable, Hashable {
    /// Quality 0–100 for lossy formats.
    public var quality: Int
    /// Progressive JPEG.
    public var progressive: Bool
    /// Lossless WebP.
    public var lossless: Bool

    /// Makes options; defaults are JPEG quality 85, baseline, lossy.
    public init(quality: Int = 85, progressive: Bool = false, lossless: Bool = false) {
        self.quality = quality
        self.progressive = progressive
        self.lossless = lossless
    }
}

/// An encoder for one format. Implementations throw only ``ImageError``.
public protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }

    /// Encodes `bitmap` (premultiplied colour is unpremultiplied as the format needs).
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws -> Data
}
