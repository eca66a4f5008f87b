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
    /// Whether the image is an animation, even of one frame: an APNG whose one frame is not its
    /// default image (or whose one frame has a duration) plays as an animation, not a still.
    /// `frameCount > 1` unless a decoder sets it.
    public var isAnimated: Bool {
        get { animatedAsSet ?? (frameCount > 1) }
        set { animatedAsSet = newValue }
    }
    /// What a decoder set ``isAnimated`` to, if it did.
    private var animatedAsSet: Bool?
    /// EXIF orientation (``Orientation/up`` when there is none).
    public var orientation: Orientation
    /// Whether the file is a video (a clip whose still is its poster): set by a video's decoder.
    /// A video's frames are bounded by its length, not by ``DecodingLimits/maxFrames``, and its
    /// decode keeps the clip (``LoadedImage/video``).
    public var isVideo = false
    /// Whether the image is drawn at any size asked for (an SVG), so its width and height are only
    /// its intrinsic size: the limits apply to the size it is drawn at, not to these. Set by the
    /// decoder of a vector format.
    public var isScalable = false

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
