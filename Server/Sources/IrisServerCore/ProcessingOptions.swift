import Iris

/// How the image is fitted into the requested width and height (imgproxy's `resizing_type`).
package enum ResizingType: String, Sendable, Hashable, CaseIterable {
    /// Inside the box, aspect kept.
    case fit
    /// Covers the box, aspect kept, the overflow cropped by the gravity.
    case fill
    /// As `fill`, but never enlarged: a smaller source gives a smaller result of the box's aspect.
    case fillDown = "fill-down"
    /// Exactly the box, aspect not kept.
    case force
    /// `fill` when the source and the box are both portrait or both landscape, else `fit`.
    case auto
}

/// Where a crop or an extension is anchored (imgproxy's `gravity`).
package enum Gravity: Sendable, Hashable {
    /// One of the nine compass points, with offsets in pixels (of the result) from that edge.
    case compass(CompassPoint, xOffset: Double, yOffset: Double)
    /// A focus point, each coordinate 0…1 of the image.
    case focusPoint(x: Double, y: Double)
    /// The most interesting region: edges, saturation and skin (attention strategy).
    case smart

    /// The centre, no offset.
    package static let center = Gravity.compass(.center, xOffset: 0, yOffset: 0)
}

/// The nine compass points of a gravity.
package enum CompassPoint: String, Sendable, Hashable, CaseIterable {
    /// Top edge, centred.
    case north = "no"
    /// Bottom edge, centred.
    case south = "so"
    /// Right edge, centred.
    case east = "ea"
    /// Left edge, centred.
    case west = "we"
    /// Top-right corner.
    case northEast = "noea"
    /// Top-left corner.
    case northWest = "nowe"
    /// Bottom-right corner.
    case southEast = "soea"
    /// Bottom-left corner.
    case southWest = "sowe"
    /// The centre.
    case center = "ce"

    /// Where along each axis the point is: 0 start, 0.5 middle, 1 end.
    package var anchor: (x: Double, y: Double) {
        switch self {
        case .north: (0.5, 0)
        case .south: (0.5, 1)
        case .east: (1, 0.5)
        case .west: (0, 0.5)
        case .northEast: (1, 0)
        case .northWest: (0, 0)
        case .southEast: (1, 1)
        case .southWest: (0, 1)
        case .center: (0.5, 0.5)
        }
    }
}

/// An opaque colour (imgproxy's `background`).
package struct BackgroundColor: Sendable, Hashable {
    /// Red, 0…255.
    package var red: UInt8
    /// Green, 0…255.
    package var green: UInt8
    /// Blue, 0…255.
    package var blue: UInt8

    /// Makes a colour.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// "rrggbb".
    package var hex: String { Hex.encode([red, green, blue]) }
}

/// Space added around the image, in pixels of the result (before `dpr`).
package struct Padding: Sendable, Hashable {
    /// Above the image.
    package var top: Int
    /// Right of the image.
    package var right: Int
    /// Below the image.
    package var bottom: Int
    /// Left of the image.
    package var left: Int

    /// Makes a padding.
    package init(top: Int, right: Int, bottom: Int, left: Int) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// Whether it adds nothing.
    package var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
}

/// A crop of the source before resizing (imgproxy's `crop`): a size in pixels, or a fraction
/// of the source when below 1; 0 keeps the source's side.
package struct CropOption: Sendable, Hashable {
    /// Width: pixels (≥ 1), a fraction (< 1), or 0 for the whole width.
    package var width: Double
    /// Height: pixels (≥ 1), a fraction (< 1), or 0 for the whole height.
    package var height: Double
    /// Where the crop is taken; `nil`: the request's gravity.
    package var gravity: Gravity?

    /// Makes a crop option.
    package init(width: Double, height: Double, gravity: Gravity?) {
        self.width = width
        self.height = height
        self.gravity = gravity
    }
}

/// imgproxy's `trim`: borders of one colour cut off the source before anything else.
package struct TrimOption: Sendable, Hashable {
    /// How far (0…255 per channel) a pixel may be from the border colour and still count as border.
    package var threshold: Double
    /// The border colour; `nil`: the top-left pixel's.
    package var color: BackgroundColor?
    /// Cut as much from the left as from the right (the lesser of the two).
    package var equalHorizontal: Bool
    /// Cut as much from the top as from the bottom (the lesser of the two).
    package var equalVertical: Bool

    /// Makes a trim option.
    package init(threshold: Double, color: BackgroundColor? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
        self.threshold = threshold
        self.color = color
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }
}

/// imgproxy's `watermark`: where and how strongly the configured watermark image is laid
/// over the result.
package struct WatermarkOption: Sendable, Hashable {
    /// Where the watermark goes.
    package enum Position: Sendable, Hashable {
        /// At a compass point, offsets inwards from its edges (as a gravity's).
        case compass(CompassPoint)
        /// Tiled over the whole image, the offsets being the space between tiles (`re`).
        case replicate
    }

    /// 0…1, times the configured opacity.
    package var opacity: Double
    /// Where it goes (the centre by default).
    package var position: Position
    /// Horizontal offset: pixels (times the dpr), or below 1 a fraction of the width.
    package var xOffset: Double
    /// Vertical offset: pixels (times the dpr), or below 1 a fraction of the height.
    package var yOffset: Double
    /// Its size relative to the result's (fitted into that fraction of it); 0: its own size.
    package var scale: Double

    /// Makes a watermark option.
    package init(opacity: Double, position: Position = .compass(.center), xOffset: Double = 0, yOffset: Double = 0, scale: Double = 0) {
        self.opacity = opacity
        self.position = position
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.scale = scale
    }
}

/// Limits a URL sets for itself (imgproxy's security options); `nil`: the configured one.
/// Each is applied as the lesser of it and the configuration's, so a URL can only tighten.
package struct RequestLimits: Sendable, Hashable {
    /// The most source pixels (`max_src_resolution`, `msr`, given in megapixels).
    package var sourcePixels: Int?
    /// The most source bytes (`max_src_file_size`, `msfs`).
    package var sourceBytes: Int?
    /// The most animation frames (`max_animation_frames`, `maf`).
    package var animationFrames: Int?
    /// The most pixels of one animation frame (`max_animation_frame_resolution`, `mafr`, megapixels).
    package var animationFramePixels: Int?
    /// The longest side of the result, which is scaled down to fit (`max_result_dimension`, `mrd`).
    package var resultDimension: Int?

    /// No limits of the URL's own.
    package init() {}

    /// The lesser of `configured` and `requested`; a requested 0 or less counts as unset.
    package static func lower(_ configured: Int, _ requested: Int?) -> Int {
        guard let requested, requested > 0 else { return configured }
        return configured > 0 ? min(configured, requested) : requested
    }
}

/// Every processing option of an imgproxy URL, parsed and checked. Defaults are imgproxy's.
package struct ProcessingOptions: Sendable, Hashable {
    /// How the image fits the box (`resizing_type`, `rt`).
    package var resizingType: ResizingType = .fit
    /// The box width in pixels (`width`, `w`); 0: from the height and the aspect.
    package var width = 0
    /// The box height in pixels (`height`, `h`); 0: from the width and the aspect.
    package var height = 0
    /// The least width of the result (`min-width`, `mw`).
    package var minWidth = 0
    /// The least height of the result (`min-height`, `mh`).
    package var minHeight = 0
    /// Horizontal zoom applied after the resize (`zoom`, `z`).
    package var zoomX = 1.0
    /// Vertical zoom applied after the resize (`zoom`, `z`).
    package var zoomY = 1.0
    /// Device pixel ratio: multiplies every size (`dpr`), 1…8.
    package var dpr = 1.0
    /// Whether a source smaller than the box is enlarged (`enlarge`, `el`).
    package var enlarge = false
    /// Whether a result smaller than the box is extended to it with the background (`extend`, `ex`).
    package var extend = false
    /// Where the image sits when extended.
    package var extendGravity: Gravity = .center
    /// Whether the result is extended to the box's aspect ratio (not its size) with the
    /// background (`extend_aspect_ratio`, `extend_ar`, `exar`).
    package var extendAspectRatio = false
    /// Where the image sits when extended to the aspect ratio.
    package var extendAspectRatioGravity: Gravity = .center
    /// Where a fill is cropped (`gravity`, `g`).
    package var gravity: Gravity = .center
    /// A crop of the source before the resize (`crop`, `c`).
    package var crop: CropOption?
    /// Space added around the result (`padding`, `pd`).
    package var padding = Padding(top: 0, right: 0, bottom: 0, left: 0)
    /// Whether EXIF orientation is applied (`auto_rotate`, `ar`).
    package var autoRotate = true
    /// A right-angle rotation after orientation: 0, 90, 180 or 270 (`rotate`, `rot`).
    package var rotate = 0
    /// Mirrored left to right, after the rotation (`flip`, `fl`, first argument).
    package var flipHorizontal = false
    /// Mirrored top to bottom, after the rotation (`flip`, `fl`, second argument).
    package var flipVertical = false
    /// Borders of one colour cut off the source before anything else (`trim`, `t`).
    package var trim: TrimOption?
    /// The configured watermark laid over the result (`watermark`, `wm`).
    package var watermark: WatermarkOption?
    /// The colour transparent pixels are flattened onto, and extensions filled with (`background`, `bg`); `nil`: keep alpha (white for JPEG).
    package var background: BackgroundColor?
    /// Gaussian blur sigma in pixels (`blur`, `bl`); 0: none.
    package var blur = 0.0
    /// Unsharp-mask sigma (`sharpen`, `sh`); 0: none.
    package var sharpen = 0.0
    /// Pixel block size (`pixelate`, `pix`); 0 or 1: none.
    package var pixelate = 0
    /// Quality 1…100 for lossy formats (`quality`, `q`); 0: the configured default.
    package var quality = 0
    /// Quality per output format (`format_quality`, `fq`).
    package var formatQuality: [String: Int] = [:]
    /// The most bytes of the result: quality is lowered until it fits (`max_bytes`, `mb`); 0: no limit.
    package var maxBytes = 0
    /// The output format (`format`, `f`, `ext`, or the URL extension); `nil`: negotiated from `Accept`.
    package var format: OutputFormat?
    /// Whether metadata is left out of the result (`strip_metadata`, `sm`); Iris writes none.
    package var stripMetadata = true
    /// Whether copyright is kept when metadata is stripped (`keep_copyright`, `kcr`).
    package var keepCopyright = true
    /// Whether the result is sRGB without a profile (`strip_color_profile`, `scp`).
    package var stripColorProfile = true
    /// Any string, changing the URL and ETag only (`cachebuster`, `cb`).
    package var cacheBuster = ""
    /// Unix time after which the URL is refused (404).
    package var expires: Int?
    /// The file name of `Content-Disposition`, without extension (`filename`, `fn`).
    package var filename: String?
    /// `Content-Disposition: attachment` instead of inline (`return_attachment`, `att`).
    package var returnAttachment = false
    /// Source formats served as they are, unprocessed (`skip_processing`, `skp`): names as
    /// ``SourceFormatName`` gives them (`jpg`, `png`, `gif`, `webp`, `avif`…).
    package var skipProcessing: Set<String> = []
    /// The source served as it is, unprocessed, and the URL's extension ignored (`raw`).
    package var raw = false
    /// Accepted and without effect (`enforce_thumbnail`, `eth`): imgproxy may then take a
    /// HEIF or AVIF file's embedded thumbnail; Iris decodes the image itself at the target size.
    package var enforceThumbnail = false
    /// Accepted and without effect (`preserve_hdr`, `ph`): results are 8-bit SDR.
    package var preserveHDR = false
    /// This request's own limits: each only lowers the configured one (`max_src_resolution`,
    /// `max_src_file_size`, `max_animation_frames`, `max_animation_frame_resolution`,
    /// `max_result_dimension`).
    package var limits = RequestLimits()

    /// The defaults: fit, no size (the source's), quality from the configuration.
    package init() {}
}
