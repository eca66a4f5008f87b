import Iris

/// How the pipeline makes a request's image: the decode target (shrink-on-load), whether
/// orientation is applied, the processors in order, and the encoder's options.
package struct RenderPlan: Sendable {
    /// The size the decoder shrinks to (never enlarging), `nil` for the full size.
    package var decodeTarget: DecodeTarget?
    /// Keep the stored orientation (`auto_rotate:0`).
    package var skipsOrientation: Bool
    /// Trim, rotate, flip, resize, effects, canvas, flatten, watermark.
    package var processors: [any ImageProcessing]

    /// The plan of `options` for output in `format`. An animated source is cut by the centre
    /// where smart gravity is asked for: a crop chosen frame by frame would jump around.
    /// `watermark` is the configured image a `watermark` option lays over the result, last.
    package init(options: ProcessingOptions, format: OutputFormat, isAnimated: Bool = false, watermark: Watermark? = nil) {
        var options = options
        if isAnimated {
            if options.gravity == .smart { options.gravity = .center }
            if options.crop?.gravity == .smart { options.crop?.gravity = .center }
        }
        // imgproxy trims stills only.
        if isAnimated { options.trim = nil }
        skipsOrientation = !options.autoRotate
        decodeTarget = Self.decodeTarget(for: options)
        var processors: [any ImageProcessing] = []
        if let trim = options.trim { processors.append(TrimProcessor(trim: trim, autoRotate: options.autoRotate)) }
        if options.rotate != 0 { processors.append(ImageProcessors.Rotate(degrees: options.rotate)) }
        if options.flipHorizontal || options.flipVertical {
            processors.append(FlipProcessor(horizontal: options.flipHorizontal, vertical: options.flipVertical))
        }
        processors.append(GeometryProcessor(options: options, step: .resize))
        if options.blur > 0 { processors.append(ImageProcessors.GaussianBlur(radius: options.blur)) }
        if options.sharpen > 0 { processors.append(ImageProcessors.Sharpen(sigma: options.sharpen)) }
        if options.pixelate > 1 {
            processors.append(ImageProcessors.Pixelate(blockSize: Int((Double(options.pixelate) * options.dpr).rounded())))
        }
        processors.append(GeometryProcessor(options: options, step: .canvas))
        if let background = options.background {
            processors.append(ImageProcessors.Flatten(background: RGBA(r: background.red, g: background.green, b: background.blue)))
        } else if format == .jpeg {
            processors.append(ImageProcessors.Flatten(background: RGBA(r: 255, g: 255, b: 255)))
        }
        if let watermark, let option = options.watermark {
            processors.append(WatermarkProcessor(watermark: watermark, option: option, dpr: options.dpr))
        }
        self.processors = processors
    }

    /// A target no smaller than the result needs: the box (times `dpr` and `zoom`, turned
    /// with `rotate`) to fit or cover; none when the source must be whole (a crop, a minimum
    /// size, a trim) or no box is given.
    static func decodeTarget(for options: ProcessingOptions) -> DecodeTarget? {
        if options.crop != nil || options.trim != nil || options.minWidth > 0 || options.minHeight > 0 { return nil }
        var width = Int((Double(options.width) * options.dpr * options.zoomX).rounded(.up))
        var height = Int((Double(options.height) * options.dpr * options.zoomY).rounded(.up))
        if options.rotate == 90 || options.rotate == 270 { swap(&width, &height) }
        guard width > 0 || height > 0 else { return nil }
        let unbounded = 1 << 20
        switch options.resizingType {
        case .fit:
            return DecodeTarget(width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded, contentMode: .fit)
        case .fill, .fillDown, .auto, .force:
            // A side of 0 is decided by the other side: a fit on that side alone.
            guard width > 0, height > 0 else {
                return DecodeTarget(width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded, contentMode: .fit)
            }
            return DecodeTarget(width: width, height: height, contentMode: .fill)
        }
    }

    /// The encoder's quality for `format`: `format_quality`, else `quality`, else `fallback`.
    package static func quality(for format: OutputFormat, options: ProcessingOptions, fallback: Int) -> Int {
        if let quality = options.formatQuality[format.rawValue], quality > 0 { return quality }
        if options.quality > 0 { return options.quality }
        return fallback
    }
}
