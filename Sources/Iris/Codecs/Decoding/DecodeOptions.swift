/// What a caller asks of one decode through ``ImageDecoderRegistry``. A decoder sees them in
/// its ``DecodeContext``, with the target already turned into an output size.
public struct DecodeOptions: Sendable, Hashable {
    /// Shrink to this target while decoding; `nil` decodes at full size.
    public var target: DecodeTarget?
    /// Turn the pixels upright according to EXIF orientation.
    public var appliesOrientation: Bool
    /// Kernel for resampling.
    public var kernel: ResamplingKernel
    /// Limits checked before allocating.
    public var limits: DecodingLimits
    /// Decode what a progressive JPEG's data so far shows rather than fail as truncated
    /// (for previews while it downloads). Decoders that cannot, ignore it.
    public var allowsPartialData: Bool
    /// Bytes of frames an animation may decode ahead and keep (at least one frame); `nil` keeps
    /// every frame when they fit ``Animation/keptFramesBudget``, else
    /// ``Animation/defaultBufferFrames`` frames at the target size.
    public var animationBufferBytes: Int?
    /// Keep the colour of pixels with alpha as the file stored it (straight), rather than
    /// premultiplied: for re-encoding (`iris convert`), where premultiplying and back would
    /// change the colour of nearly transparent pixels (by up to 127 levels at alpha 1, all of
    /// it at alpha 0). The result's ``Bitmap/isPremultiplied`` says what a decoder did: PNG and
    /// still WebP decoded at their stored size keep straight alpha; resized, composed
    /// (animation frames) or decoded by a decoder that cannot, the colour is premultiplied.
    /// Off by default: views, processors and the resampler expect premultiplied colour.
    public var keepsStraightAlpha = false
    /// Convert an embedded profile's pixels to sRGB, or keep them as stored and tagged
    /// (``Bitmap/colorSpace``); `nil` is the registry's ``ImageDecoderRegistry/colorManagement``
    /// (``ColorManagement/platformDefault`` unless set). A decoder sees the choice made.
    public var colorManagement: ColorManagement?
    /// Which frame of a video is its still image (``LoadedImage/bitmap``): set by the registry
    /// from its ``ImageDecoderRegistry/videoPoster``.
    var videoPoster: VideoPoster = .firstNonBlack

    /// Makes options.
    public init(
        target: DecodeTarget? = nil, appliesOrientation: Bool = true,
        kernel: ResamplingKernel = .lanczos3, limits: DecodingLimits = .default,
        allowsPartialData: Bool = false, animationBufferBytes: Int? = nil,
        colorManagement: ColorManagement? = nil
    ) {
        self.target = target
        self.appliesOrientation = appliesOrientation
        self.kernel = kernel
        self.limits = limits
        self.allowsPartialData = allowsPartialData
        self.animationBufferBytes = animationBufferBytes
        self.colorManagement = colorManagement
    }
}
