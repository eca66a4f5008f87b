/// Every processing option but `preset` (which needs the parser's presets): its names, the
/// long one first, and the small function that reads its arguments into the options. A name
/// is looked up once in ``byName``.
enum OptionTable {
    /// Reads one option's arguments into the options.
    typealias Parse = @Sendable (Arguments, inout ProcessingOptions) throws(ServeError) -> Void

    /// One option: its names and its parser.
    struct Rule: Sendable {
        /// The long name first, then the aliases.
        let names: [String]
        /// Reads the arguments.
        let parse: Parse

        init(_ names: String..., parse: @escaping Parse) {
            self.names = names
            self.parse = parse
        }
    }

    /// The parser of each name and alias.
    static let byName: [String: Parse] = Dictionary(
        uniqueKeysWithValues: rules.flatMap { rule in rule.names.map { ($0, rule.parse) } })

    /// The options, as imgproxy documents them.
    static let rules: [Rule] = geometry + effects + output + limits

    static let geometry: [Rule] = [
        Rule("resize", "rs", parse: resize),
        Rule("size", "s", parse: size),
        Rule("resizing_type", "rt") { args, options throws(ServeError) in options.resizingType = try args.resizingType(args.single()) },
        Rule("width", "w") { args, options throws(ServeError) in options.width = try args.size(args.single()) },
        Rule("height", "h") { args, options throws(ServeError) in options.height = try args.size(args.single()) },
        Rule("min-width", "min_width", "mw") { args, options throws(ServeError) in options.minWidth = try args.size(args.single()) },
        Rule("min-height", "min_height", "mh") { args, options throws(ServeError) in options.minHeight = try args.size(args.single()) },
        Rule("zoom", "z", parse: zoom),
        Rule("dpr") { args, options throws(ServeError) in options.dpr = try args.positive(args.single(), max: 8) },
        Rule("enlarge", "el") { args, options throws(ServeError) in options.enlarge = try args.bool(args.single()) },
        Rule("extend", "ex") { args, options throws(ServeError) in try extend(args.values, option: args.option, to: &options) },
        Rule("extend_aspect_ratio", "extend_ar", "exar", parse: extendAspectRatio),
        Rule("gravity", "g") { args, options throws(ServeError) in
            options.gravity = try args.gravity(args.values, allowsSmart: true, previous: options.gravity)
        },
        Rule("crop", "c", parse: crop),
        Rule("trim", "t", parse: trim),
        Rule("padding", "pd", parse: padding),
        Rule("auto_rotate", "ar") { args, options throws(ServeError) in options.autoRotate = try args.bool(args.single()) },
        Rule("rotate", "rot", parse: rotate),
        Rule("flip", "fl", parse: flip),
    ]

    static let effects: [Rule] = [
        Rule("watermark", "wm", parse: watermark),
        Rule("background", "bg") { args, options throws(ServeError) in options.background = try args.color() },
        Rule("blur", "bl") { args, options throws(ServeError) in options.blur = try args.nonNegative(args.single(), max: 100) },
        Rule("sharpen", "sh") { args, options throws(ServeError) in options.sharpen = try args.nonNegative(args.single(), max: 100) },
        Rule("pixelate", "pix") { args, options throws(ServeError) in options.pixelate = try args.size(args.single()) },
    ]

    static let output: [Rule] = [
        Rule("quality", "q") { args, options throws(ServeError) in options.quality = try args.quality(args.single()) },
        Rule("format_quality", "fq", parse: formatQuality),
        Rule("max_bytes", "mb") { args, options throws(ServeError) in options.maxBytes = try args.size(args.single()) },
        Rule("format", "f", "ext", parse: format),
        Rule("strip_metadata", "sm") { args, options throws(ServeError) in options.stripMetadata = try args.bool(args.single()) },
        Rule("keep_copyright", "kcr") { args, options throws(ServeError) in options.keepCopyright = try args.bool(args.single()) },
        Rule("strip_color_profile", "scp") { args, options throws(ServeError) in
            options.stripColorProfile = try args.bool(args.single())
        },
        Rule("cachebuster", "cb") { args, options throws(ServeError) in options.cacheBuster = try args.single() },
        Rule("expires", "exp", parse: expires),
        Rule("filename", "fn", parse: filename),
        Rule("return_attachment", "att") { args, options throws(ServeError) in options.returnAttachment = try args.bool(args.single()) },
        Rule("skip_processing", "skp", parse: skipProcessing),
        Rule("raw") { args, options throws(ServeError) in options.raw = try args.bool(args.single()) },
        Rule("enforce_thumbnail", "eth") { args, options throws(ServeError) in options.enforceThumbnail = try args.bool(args.single()) },
        Rule("preserve_hdr", "ph") { args, options throws(ServeError) in options.preserveHDR = try args.bool(args.single()) },
    ]

    static let limits: [Rule] = [
        Rule("max_src_resolution", "msr") { args, options throws(ServeError) in
            options.limits.sourcePixels = try args.megapixels(args.single())
        },
        Rule("max_src_file_size", "msfs") { args, options throws(ServeError) in
            options.limits.sourceBytes = try args.wholeNumber(args.single())
        },
        Rule("max_animation_frames", "maf", parse: maxAnimationFrames),
        Rule("max_animation_frame_resolution", "mafr") { args, options throws(ServeError) in
            options.limits.animationFramePixels = try args.megapixels(args.single())
        },
        Rule("max_result_dimension", "mrd") { args, options throws(ServeError) in
            options.limits.resultDimension = try args.wholeNumber(args.single())
        },
    ]
}
