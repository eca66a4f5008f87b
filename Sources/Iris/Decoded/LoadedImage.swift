import Foundation

/// A decoded image, ready to show: what the pipeline and the decoder registry return.
public struct LoadedImage: Sendable {
    /// The pixels, upright (orientation applied unless the request opted out).
    public var bitmap: Bitmap
    /// Frames and timing when the source is animated (GIF, APNG, animated WebP with more than
    /// one frame, or an APNG of one frame, or a video); frames are made on demand at the size of
    /// ``bitmap``, which is frame 0 (for a video: its poster, the first frame that is not black).
    public var animation: Animation?
    /// The format the data was in.
    public var format: ImageFormat
    /// Size of the source as shown upright, before downsampling.
    public var sourceSize: PixelSize
    /// The EXIF orientation the source carried.
    public var orientation: Orientation
    /// Whether this is a progressive preview rather than the final image.
    public var isPreview: Bool
    /// The original encoded data, when kept.
    public var data: Data?
    /// The clip itself when the source is a video (MP4, MOV, WebM, Matroska): ``bitmap`` is its
    /// poster, and IrisUI's views play these bytes (muted, looping) where the platform can.
    /// Processors change the poster (and, on Linux, the frames), not the clip a view plays.
    public var video: EncodedVideo?
    /// Pixels per point the request asked for (``ImageRequest/scale``): what a platform image
    /// made from this one is scaled by. The pipeline sets it when it hands the image out.
    public var scale: Double = 1
    /// The image service's rendition these pixels were decoded from
    /// (``ImagePipeline/Configuration/imageService``); `nil` when they were decoded from the
    /// original. A rendition's ``sourceSize`` is the rendition's, not the original's (which the
    /// service alone knows): ``originalSize`` says what is known of the original.
    public var rendition: ImageRendition?
    /// What HTTP said about the bytes this image was decoded from (validators, freshness), when
    /// they came over HTTP: the pipeline reads it to know when an image in the memory cache has
    /// gone stale and must be revalidated. `nil` for files and `.data` closures.
    public var httpMetadata: HTTPCacheMetadata?

    /// The original source's size as stored, when it is known: ``sourceSize`` for an image
    /// decoded from the original, `nil` for a service's ``rendition``. What a view compares a
    /// new slot against to know whether more pixels can be had.
    public var originalSize: PixelSize? { rendition == nil ? sourceSize : nil }

    /// Makes a loaded image.
    public init(
        bitmap: Bitmap, animation: Animation? = nil, format: ImageFormat, sourceSize: PixelSize,
        orientation: Orientation = .up, isPreview: Bool = false, data: Data? = nil, video: EncodedVideo? = nil
    ) {
        self.bitmap = bitmap
        self.animation = animation
        self.format = format
        self.sourceSize = sourceSize
        self.orientation = orientation
        self.isPreview = isPreview
        self.data = data
        self.video = video
    }

    /// Whether this value is the only holder of its pixels and animation: nothing else (a view, a
    /// player) shows them, so dropping it frees them. An animation's frames may share the still
    /// image's pixels, so an animated image is told by its animation alone.
    mutating func isOnlyCopy() -> Bool {
        if animation != nil { return isKnownUniquelyReferenced(&animation!) }
        return bitmap.isOnlyCopy()
    }

    /// Bytes held: pixels, the most an animation can hold (``Animation/costLimit``: its frame
    /// buffer, canvas and encoded data, fixed from the start), and the encoded bytes kept (the
    /// data, a video's clip: the same bytes when both are kept, counted once); what the memory
    /// cache counts.
    ///
    /// An animation of frames in memory whose frame 0 is ``bitmap`` (the same storage) counts it
    /// once. A lazy animation's buffer may hold frame 0 too, but then it has room for one frame
    /// fewer, so the bound is the same.
    public var cost: Int {
        let encoded = max(data?.count ?? 0, video?.data.count ?? 0)
        guard let animation else { return bitmap.cost + encoded }
        // A lazy animation counts the file it reads frames from: those bytes are not added twice.
        return bitmap.cost + animation.costLimit - animation.sharedFirstFrameBytes(with: bitmap)
            + max(0, encoded - animation.encodedByteCount)
    }
}
