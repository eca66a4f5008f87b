/// Bounds a decode must stay within; checked from the header, before any pixel is allocated.
public struct DecodingLimits: Sendable, Hashable {
    /// Most source pixels (width × height before downsampling). Default 256 MP.
    public var maxPixels: Int
    /// Most frames of an animation. Default 10,000. Frames are composed on demand into a
    /// bounded buffer, so this bounds the work of walking a file's frames (and the small record
    /// kept per frame), not pixel memory. A video over it is not refused: it comes as its
    /// poster alone, without an animation (its length is bounded by ``maxVideoSeconds``).
    public var maxFrames: Int
    /// Most bytes of one decoded image at its output size: a still, or one frame of an
    /// animation (whose buffer holds a few of them, see ``DecodeOptions/animationBufferBytes``).
    /// Default 1 GiB.
    public var maxDecodedBytes: Int

    /// Longest video, in seconds, by its header. Default one hour.
    public var maxVideoSeconds: Double
    /// Longest time one decode of a video (its header, a poster, a frame) may take before it is
    /// stopped inside the decoder; `nil` for no limit. Default 60 seconds.
    public var maxDecodingTime: Duration?
    /// Makes limits; the defaults suit an app or a thumbnail server.
    public init(
        maxPixels: Int = 256_000_000, maxFrames: Int = 10_000, maxDecodedBytes: Int = 1 << 30,
        maxVideoSeconds: Double = 3600, maxDecodingTime: Duration? = .seconds(60)
    ) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxDecodedBytes = maxDecodedBytes
        self.maxVideoSeconds = maxVideoSeconds
        self.maxDecodingTime = maxDecodingTime
    }

    /// The defaults.
    public static let `default` = DecodingLimits()

    /// Throws when a source of this size may not be decoded.
    public func check(width: Int, height: Int, format: ImageFormat) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .invalidDimensions(format: format, width: width, height: height)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw .overLimit(.pixels(width: width, height: height, limit: maxPixels))
        }
    }

    /// Throws when an output of this many bytes may not be made.
    public func check(decodedBytes: Int) throws(ImageError) {
        if decodedBytes > maxDecodedBytes {
            throw .overLimit(.decodedBytes(bytes: decodedBytes, limit: maxDecodedBytes))
        }
    }

    /// Throws when an output of `size` in 4-byte pixels may not be made (or its byte count
    /// overflows).
    func check(decodedSize size: PixelSize) throws(ImageError) {
        let (bytes, overflow) = size.pixelCount.multipliedReportingOverflow(by: 4)
        try check(decodedBytes: overflow ? .max : bytes)
    }

    /// Throws when a video lasts longer than ``maxVideoSeconds``.
    public func check(videoSeconds: Double) throws(ImageError) {
        if videoSeconds > maxVideoSeconds {
            throw .overLimit(.videoDuration(seconds: videoSeconds, limit: maxVideoSeconds))
        }
    }

    /// Throws when an animation has too many frames.
    public func check(frames: Int) throws(ImageError) {
        if frames > maxFrames {
            throw .overLimit(.frames(count: frames, limit: maxFrames))
        }
    }

    /// Throws when what `header` says may not be decoded: its size, and its frames unless it is
    /// a video (a video over ``maxFrames`` is its poster alone; its length is bounded by
    /// ``maxVideoSeconds``, which its decoder checks). A scalable image's (an SVG's) size is only its
    /// intrinsic size: it is drawn at the output size, which its decoder checks against ``maxPixels``.
    public func check(_ header: ImageHeader) throws(ImageError) {
        if header.isScalable {
            guard header.width > 0, header.height > 0 else {
                throw .invalidDimensions(format: header.format, width: header.width, height: header.height)
            }
        } else {
            try check(width: header.width, height: header.height, format: header.format)
        }
        if !header.isVideo { try check(frames: header.frameCount) }
    }
}
