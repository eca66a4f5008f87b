/// Reads imgproxy's processing options: `/`-separated segments `name:arg:arg`, by long or
/// short name, applied in order (a later option overrides an earlier one). Presets are named
/// lists of option segments from configuration; the preset `default` applies first, always.
/// An empty argument leaves the value it stands for unchanged (its default), as in imgproxy.
///
/// An unknown option, a missing or malformed argument: ``ServeError`` 400 naming the option.
package struct OptionParser: Sendable {
    /// Presets by name: each a list of option segments (`["rs:fill:300:300", "g:sm"]`).
    package var presets: [String: [String]]
    /// Told of what imgproxy only warns about: a preset that names itself (skipped).
    package var warn: @Sendable (String) -> Void

    /// Makes a parser with `presets`; `warn` hears of skipped self-references.
    package init(presets: [String: [String]] = [:], warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.presets = presets
        self.warn = warn
    }

    /// The options of `segments` over `defaults` (client hints) and the `default` preset.
    package func parse(_ segments: [String], defaults: ProcessingOptions = ProcessingOptions()) throws(ServeError) -> ProcessingOptions {
        var options = defaults
        if presets["default"] != nil { try applyPresets(["default"], to: &options, using: []) }
        for segment in segments { try apply(segment, to: &options) }
        return options
    }

    /// Checks every preset by applying it to the defaults: the error names the preset. A
    /// service refuses to start with a preset that would fail every request that uses it.
    package func validatePresets() throws(ServeError) {
        for name in presets.keys.sorted() {
            var options = ProcessingOptions()
            do throws(ServeError) {
                try applyPresets([name], to: &options, using: [])
            } catch {
                throw ServeError(status: error.status, "preset \(quoted(name)): \(error.reason)")
            }
        }
    }

    private func applyPresets(
        _ names: [String], to options: inout ProcessingOptions, using used: [String],
        option: String = "preset"
    ) throws(ServeError) {
        for name in names {
            guard let segments = presets[name] else {
                throw ServeError.badRequest("invalid option \(quoted(option)): unknown preset \(quoted(name))")
            }
            // imgproxy skips a preset already being applied, with a warning, rather than fail.
            if used.contains(name) {
                warn("preset \(quoted(name)) refers to itself; the reference is skipped")
                continue
            }
            for segment in segments { try apply(segment, to: &options, presets: used + [name]) }
        }
    }

    /// Applies one `name:args` segment to `options`: its parser in ``OptionTable``, or the
    /// presets it names. `presets` are those being applied (a preset naming one of them is skipped).
    package func apply(_ segment: String, to options: inout ProcessingOptions, presets used: [String] = []) throws(ServeError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let args = Arguments(option: name, values: Array(parts.dropFirst()))
        if name == "preset" || name == "pr" {
            try args.count(1...16)
            try applyPresets(args.values, to: &options, using: used, option: name)
            return
        }
        guard let parse = OptionTable.byName[name] else { throw ServeError.badRequest("unknown option \(quoted(name))") }
        try parse(args, &options)
    }
}

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
