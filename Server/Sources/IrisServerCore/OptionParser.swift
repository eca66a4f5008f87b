/// Reads imgproxy's processing options: `/`-separated segments `name:arg:arg`, by long or
/// short name, applied in order (a later option overrides an earlier one). Presets are named
/// lists of option segments from configuration; the preset `default` applies first, always.
/// An empty argument leaves the value it stands for unchanged (its default), as in imgproxy.
///
/// An unknown option, a missing or malformed argument: ``ServeError`` 400 naming the option.
public struct OptionParser: Sendable {
    /// Presets by name: each a list of option segments (`["rs:fill:300:300", "g:sm"]`).
    public var presets: [String: [String]]
    /// Told of what imgproxy only warns about: a preset that names itself (skipped).
    public var warn: @Sendable (String) -> Void

    /// Makes a parser with `presets`; `warn` hears of skipped self-references.
    public init(presets: [String: [String]] = [:], warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.presets = presets
        self.warn = warn
    }

    /// The options of `segments` over `defaults` (client hints) and the `default` preset.
    public func parse(_ segments: [String], defaults: ProcessingOptions = ProcessingOptions()) throws(ServeError) -> ProcessingOptions {
        var options = defaults
        if presets["default"] != nil { try applyPresets(["default"], to: &options, using: []) }
        for segment in segments { try apply(segment, to: &options) }
        return options
    }

    /// Checks every preset by applying it to the defaults: the error names the preset. A
    /// service refuses to start with a preset that would fail every request that uses it.
    public func validatePresets() throws(ServeError) {
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

    /// Applies one `name:args` segment to `options`.
    /// `presets` are those being applied (a preset naming one of them is skipped).
    public func apply(_ segment: String, to options: inout ProcessingOptions, presets used: [String] = []) throws(ServeError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let args = Arguments(option: name, values: Array(parts.dropFirst()))
        switch name {
        case "resize", "rs":
            try args.count(1...8)
            if let type = args.optional(0) { options.resizingType = try args.resizingType(type) }
            if let width = args.optional(1) { options.width = try args.size(width) }
            if let height = args.optional(2) { options.height = try args.size(height) }
            if let enlarge = args.optional(3) { options.enlarge = try args.bool(enlarge) }
            if args.values.count > 4 { try applyExtend(Array(args.values[4...]), option: name, to: &options) }
        case "size", "s":
            try args.count(1...7)
            if let width = args.optional(0) { options.width = try args.size(width) }
            if let height = args.optional(1) { options.height = try args.size(height) }
            if let enlarge = args.optional(2) { options.enlarge = try args.bool(enlarge) }
            if args.values.count > 3 { try applyExtend(Array(args.values[3...]), option: name, to: &options) }
        case "resizing_type", "rt":
            options.resizingType = try args.resizingType(args.single())
        case "width", "w":
            options.width = try args.size(args.single())
        case "height", "h":
            options.height = try args.size(args.single())
        case "min-width", "min_width", "mw":
            options.minWidth = try args.size(args.single())
        case "min-height", "min_height", "mh":
            options.minHeight = try args.size(args.single())
        case "zoom", "z":
            try args.count(1...2)
            options.zoomX = try args.positive(args.values[0], max: 100)
            options.zoomY = args.values.count > 1 ? try args.positive(args.values[1], max: 100) : options.zoomX
        case "dpr":
            options.dpr = try args.positive(args.single(), max: 8)
        case "enlarge", "el":
            options.enlarge = try args.bool(args.single())
        case "extend", "ex":
            try applyExtend(args.values, option: name, to: &options)
        case "extend_aspect_ratio", "extend_ar", "exar":
            try args.count(1...4)
            options.extendAspectRatio = try args.bool(args.values[0])
            if args.values.count > 1 {
                options.extendAspectRatioGravity = try args.gravity(
                    Array(args.values[1...]), allowsSmart: false,
                    previous: options.extendAspectRatioGravity)
            }
        case "gravity", "g":
            options.gravity = try args.gravity(args.values, allowsSmart: true, previous: options.gravity)
        case "crop", "c":
            try args.count(1...5)
            let width = try args.optional(0).map { value throws(ServeError) in try args.cropSide(value) } ?? 0
            let height = try args.optional(1).map { value throws(ServeError) in try args.cropSide(value) } ?? 0
            let previous = options.crop?.gravity
            let gravity =
                args.values.count > 2
                ? try args.gravity(Array(args.values[2...]), allowsSmart: true, previous: previous ?? .center) : previous
            options.crop = CropOption(width: width, height: height, gravity: gravity)
        case "trim", "t":
            try args.count(1...4)
            guard let threshold = args.optional(0) else {
                options.trim = nil
                break
            }
            var trim = TrimOption(threshold: try args.nonNegative(threshold, max: 255))
            if let color = args.optional(1) { trim.color = try args.hexColor(color) }
            if let equal = args.optional(2) { trim.equalHorizontal = try args.bool(equal) }
            if let equal = args.optional(3) { trim.equalVertical = try args.bool(equal) }
            options.trim = trim
        case "watermark", "wm":
            try args.count(1...7)
            guard let opacity = Double(args.values[0]), (0...1).contains(opacity) else {
                throw args.malformed("the opacity is a number from 0 to 1")
            }
            if opacity == 0 {
                options.watermark = nil
                break
            }
            var mark = options.watermark ?? WatermarkOption(opacity: opacity)
            mark.opacity = opacity
            if let position = args.optional(1) {
                if position == "re" {
                    mark.position = .replicate
                } else if let point = CompassPoint(rawValue: position) {
                    mark.position = .compass(point)
                } else {
                    throw args.malformed("unknown position \(quoted(position))")
                }
            }
            if let x = args.optional(2) { mark.xOffset = try args.signed(x) }
            if let y = args.optional(3) { mark.yOffset = try args.signed(y) }
            if let scale = args.optional(4) { mark.scale = try args.positive(scale, max: 100) }
            options.watermark = mark
        case "flip", "fl":
            try args.count(1...2)
            if let horizontal = args.optional(0) { options.flipHorizontal = try args.bool(horizontal) }
            if let vertical = args.optional(1) { options.flipVertical = try args.bool(vertical) }
        case "padding", "pd":
            try args.count(1...4)
            let sides = try args.values.map { value throws(ServeError) in try args.size(value) }
            // CSS order: top, right, bottom, left; missing sides repeat the given ones.
            let top = sides[0]
            let right = sides.count > 1 ? sides[1] : top
            let bottom = sides.count > 2 ? sides[2] : top
            let left = sides.count > 3 ? sides[3] : right
            options.padding = Padding(top: top, right: right, bottom: bottom, left: left)
        case "auto_rotate", "ar":
            options.autoRotate = try args.bool(args.single())
        case "rotate", "rot":
            try args.count(1...1)
            guard let angle = Int(args.values[0]), angle % 90 == 0 else {
                throw args.malformed("the angle must be a multiple of 90")
            }
            options.rotate = ((angle % 360) + 360) % 360
        case "background", "bg":
            options.background = try args.color()
        case "blur", "bl":
            options.blur = try args.nonNegative(args.single(), max: 100)
        case "sharpen", "sh":
            options.sharpen = try args.nonNegative(args.single(), max: 100)
        case "pixelate", "pix":
            options.pixelate = try args.size(args.single())
        case "quality", "q":
            options.quality = try args.quality(args.single())
        case "format_quality", "fq":
            guard !args.values.isEmpty, args.values.count % 2 == 0 else { throw args.malformed("expected format:quality pairs") }
            for index in stride(from: 0, to: args.values.count, by: 2) {
                guard let format = OutputFormat(extension: args.values[index]) else {
                    throw args.malformed("unknown format \(quoted(args.values[index]))")
                }
                options.formatQuality[format.rawValue] = try args.quality(args.values[index + 1])
            }
        case "max_bytes", "mb":
            options.maxBytes = try args.size(args.single())
        case "format", "f", "ext":
            try args.count(1...1)
            if args.values[0].isEmpty {
                options.format = nil
                break
            }
            guard let format = OutputFormat(extension: args.values[0]) else {
                throw args.malformed("unknown format \(quoted(args.values[0]))")
            }
            options.format = format
        case "strip_metadata", "sm":
            options.stripMetadata = try args.bool(args.single())
        case "keep_copyright", "kcr":
            options.keepCopyright = try args.bool(args.single())
        case "strip_color_profile", "scp":
            options.stripColorProfile = try args.bool(args.single())
        case "cachebuster", "cb":
            options.cacheBuster = try args.single()
        case "expires", "exp":
            try args.count(1...1)
            guard let time = Int(args.values[0]) else { throw args.malformed("expected a Unix time") }
            options.expires = time
        case "filename", "fn":
            try args.count(1...2)
            var name = args.values[0]
            if args.values.count > 1, try args.bool(args.values[1]) {
                guard let decoded = Base64URL.decode(name), let text = String(data: decoded, encoding: .utf8) else {
                    throw args.malformed("the name is not base64url")
                }
                name = text
            } else {
                name = name.removingPercentEncoding ?? name
            }
            options.filename = name
        case "return_attachment", "att":
            options.returnAttachment = try args.bool(args.single())
        case "skip_processing", "skp":
            for value in args.values {
                guard let format = SourceFormatName(value) else { throw args.malformed("unknown format \(quoted(value))") }
                options.skipProcessing.insert(format.name)
            }
        case "raw":
            options.raw = try args.bool(args.single())
        case "enforce_thumbnail", "eth":
            options.enforceThumbnail = try args.bool(args.single())
        case "preserve_hdr", "ph":
            options.preserveHDR = try args.bool(args.single())
        case "max_src_resolution", "msr":
            options.limits.sourcePixels = try args.megapixels(args.single())
        case "max_src_file_size", "msfs":
            options.limits.sourceBytes = try args.wholeNumber(args.single())
        case "max_animation_frames", "maf":
            try args.count(1...1)
            let frames = try args.wholeNumber(args.values[0])
            guard frames > 0 else { throw args.malformed("the number of frames must be above 0") }
            options.limits.animationFrames = frames
        case "max_animation_frame_resolution", "mafr":
            options.limits.animationFramePixels = try args.megapixels(args.single())
        case "max_result_dimension", "mrd":
            options.limits.resultDimension = try args.wholeNumber(args.single())
        case "preset", "pr":
            try args.count(1...16)
            try applyPresets(args.values, to: &options, using: used, option: name)
        default:
            throw ServeError.badRequest("unknown option \(quoted(name))")
        }
    }

    private func applyExtend(_ values: [String], option: String, to options: inout ProcessingOptions) throws(ServeError) {
        let args = Arguments(option: option, values: values)
        try args.count(1...4)
        options.extend = try args.bool(values[0])
        if values.count > 1 {
            options.extendGravity = try args.gravity(Array(values[1...]), allowsSmart: false, previous: options.extendGravity)
        }
    }
}

/// The arguments of one option, with the checks that name it when they fail.
struct Arguments {
    let option: String
    let values: [String]

    func malformed(_ reason: String) -> ServeError {
        .badRequest("invalid option \(quoted(option)): \(reason)")
    }

    /// The one value of an option that takes exactly one.
    func single() throws(ServeError) -> String {
        try count(1...1)
        return values[0]
    }

    func count(_ range: ClosedRange<Int>) throws(ServeError) {
        guard range.contains(values.count) else {
            throw malformed(
                range.lowerBound == range.upperBound
                    ? "expected \(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")"
                    : "expected \(range.lowerBound) to \(range.upperBound) arguments")
        }
    }

    /// The value at `index`, unless absent or empty (imgproxy leaves empty arguments unchanged).
    func optional(_ index: Int) -> String? {
        index < values.count && !values[index].isEmpty ? values[index] : nil
    }

    func size(_ value: String) throws(ServeError) -> Int {
        guard let number = Int(value), number >= 0, number <= 100_000 else {
            throw malformed("\(quoted(value)) is not a size in pixels")
        }
        return number
    }

    func cropSide(_ value: String) throws(ServeError) -> Double {
        guard let number = Double(value), number.isFinite, number >= 0, number <= 100_000 else {
            throw malformed("\(quoted(value)) is not a size")
        }
        return number
    }

    func positive(_ value: String, max: Double) throws(ServeError) -> Double {
        guard let number = Double(value), number.isFinite, number > 0, number <= max else {
            throw malformed("\(quoted(value)) is not a number above 0 and at most \(Int(max))")
        }
        return number
    }

    func nonNegative(_ value: String, max: Double) throws(ServeError) -> Double {
        guard let number = Double(value), number.isFinite, number >= 0, number <= max else {
            throw malformed("\(quoted(value)) is not a number from 0 to \(Int(max))")
        }
        return number
    }

    func quality(_ value: String) throws(ServeError) -> Int {
        guard let number = Int(value), (0...100).contains(number) else {
            throw malformed("\(quoted(value)) is not a quality from 0 to 100")
        }
        return number
    }

    func bool(_ value: String) throws(ServeError) -> Bool {
        switch value.lowercased() {
        case "1", "t", "true": return true
        case "0", "f", "false", "": return false
        default: throw malformed("\(quoted(value)) is not a boolean (1, t, true, 0, f, false)")
        }
    }

    func resizingType(_ value: String) throws(ServeError) -> ResizingType {
        guard let type = ResizingType(rawValue: value) else {
            throw malformed("unknown resizing type \(quoted(value))")
        }
        return type
    }

    /// `type[:x_offset:y_offset]`, `fp:x:y` or `sm`. An empty type or offset keeps what
    /// `previous` had (imgproxy leaves an empty argument unchanged).
    func gravity(_ values: [String], allowsSmart: Bool, previous: Gravity = .center) throws(ServeError) -> Gravity {
        guard let type = values.first else { throw malformed("expected a gravity") }
        var previousOffsets = (0.0, 0.0)
        switch previous {
        case .compass(_, let x, let y), .focusPoint(let x, let y): previousOffsets = (x, y)
        case .smart: break
        }
        switch type {
        case "sm":
            guard allowsSmart, values.count == 1 else { throw malformed("smart gravity takes no arguments here") }
            return .smart
        case "fp":
            guard values.count == 3 else { throw malformed("a focus point is fp:x:y with x and y from 0 to 1") }
            let x = try offset(values[1], previous: previousOffsets.0, unit: true)
            let y = try offset(values[2], previous: previousOffsets.1, unit: true)
            return .focusPoint(x: x, y: y)
        default:
            var point = CompassPoint.center
            if type.isEmpty {
                if case .compass(let kept, _, _) = previous { point = kept }
            } else {
                guard let named = CompassPoint(rawValue: type) else { throw malformed("unknown gravity \(quoted(type))") }
                point = named
            }
            guard values.count <= 3 else { throw malformed("a gravity takes at most two offsets") }
            let x = values.count > 1 ? try offset(values[1], previous: previousOffsets.0, unit: false) : previousOffsets.0
            let y = values.count > 2 ? try offset(values[2], previous: previousOffsets.1, unit: false) : previousOffsets.1
            return .compass(point, xOffset: x, yOffset: y)
        }
    }

    /// One gravity offset: empty keeps `previous`; `unit`: 0…1 (a focus point's coordinate).
    private func offset(_ value: String, previous: Double, unit: Bool) throws(ServeError) -> Double {
        if value.isEmpty { return previous }
        guard let number = Double(value), number.isFinite, abs(number) <= 100_000, !unit || (0...1).contains(number) else {
            throw malformed(unit ? "a focus point is fp:x:y with x and y from 0 to 1" : "\(quoted(value)) is not an offset")
        }
        return number
    }

    /// `r:g:b` (0…255 each), `rrggbb` or `rgb`; one empty argument: none.
    func color() throws(ServeError) -> BackgroundColor? {
        if values.count == 1 {
            if values[0].isEmpty { return nil }
            return try hexColor(values[0])
        }
        guard values.count == 3 else { throw malformed("expected r:g:b or rrggbb") }
        var channels: [UInt8] = []
        for value in values {
            guard let number = UInt8(value) else { throw malformed("\(quoted(value)) is not a channel from 0 to 255") }
            channels.append(number)
        }
        return BackgroundColor(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// `rrggbb` or `rgb` (each digit doubled: `fff` is white).
    func hexColor(_ value: String) throws(ServeError) -> BackgroundColor {
        let digits = value.utf8.count == 3 ? String(value.flatMap { [$0, $0] }) : value
        guard digits.utf8.count == 6, let bytes = Hex.decode(digits) else {
            throw malformed("\(quoted(value)) is not a colour (rrggbb, rgb or r:g:b)")
        }
        return BackgroundColor(red: bytes[0], green: bytes[1], blue: bytes[2])
    }

    /// Megapixels (may be fractional) as pixels.
    func megapixels(_ value: String) throws(ServeError) -> Int {
        guard let number = Double(value), number.isFinite, number >= 0, number <= 1_000_000 else {
            throw malformed("\(quoted(value)) is not a number of megapixels")
        }
        return Int(number * 1_000_000)
    }

    /// Any finite number within ±100,000.
    func signed(_ value: String) throws(ServeError) -> Double {
        guard let number = Double(value), number.isFinite, abs(number) <= 100_000 else {
            throw malformed("\(quoted(value)) is not a number")
        }
        return number
    }

    /// A whole number, 0 or more.
    func wholeNumber(_ value: String) throws(ServeError) -> Int {
        guard let number = Int(value), number >= 0 else { throw malformed("\(quoted(value)) is not a whole number") }
        return number
    }
}

/// `value` in quotes, cut to 40 characters, for a one-line reason.
func quoted(_ value: String) -> String {
    let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
    return "\"\(cut)\""
}
