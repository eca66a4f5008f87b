import Foundation

/// Reads imgproxy's processing options: `/`-separated segments `name:arg:arg`, by long or
/// short name, applied in order (a later option overrides an earlier one). Presets are named
/// lists of option segments from configuration; the preset `default` applies first, always.
///
/// An unknown option, a missing or malformed argument: ``ServeError`` 400 naming the option.
public struct OptionParser: Sendable {
    /// Presets by name: each a list of option segments (`["rs:fill:300:300", "g:sm"]`).
    public var presets: [String: [String]]

    /// Makes a parser with `presets`.
    public init(presets: [String: [String]] = [:]) { self.presets = presets }

    /// The options of `segments` over the defaults (and the `default` preset).
    public func parse(_ segments: [String]) throws(ServeError) -> ProcessingOptions {
        var options = ProcessingOptions()
        if let defaults = presets["default"] {
            for segment in defaults { try apply(segment, to: &options, depth: 1) }
        }
        for segment in segments { try apply(segment, to: &options, depth: 0) }
        return options
    }

    /// Applies one `name:args` segment to `options`.
    public func apply(_ segment: String, to options: inout ProcessingOptions, depth: Int = 0) throws(ServeError) {
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
            try args.count(1...1)
            options.resizingType = try args.resizingType(args.values[0])
        case "width", "w":
            try args.count(1...1)
            options.width = try args.size(args.values[0])
        case "height", "h":
            try args.count(1...1)
            options.height = try args.size(args.values[0])
        case "min-width", "min_width", "mw":
            try args.count(1...1)
            options.minWidth = try args.size(args.values[0])
        case "min-height", "min_height", "mh":
            try args.count(1...1)
            options.minHeight = try args.size(args.values[0])
        case "zoom", "z":
            try args.count(1...2)
            options.zoomX = try args.positive(args.values[0], max: 100)
            options.zoomY = args.values.count > 1 ? try args.positive(args.values[1], max: 100) : options.zoomX
        case "dpr":
            try args.count(1...1)
            options.dpr = try args.positive(args.values[0], max: 8)
        case "enlarge", "el":
            try args.count(1...1)
            options.enlarge = try args.bool(args.values[0])
        case "extend", "ex":
            try applyExtend(args.values, option: name, to: &options)
        case "gravity", "g":
            options.gravity = try args.gravity(args.values, allowsSmart: true)
        case "crop", "c":
            try args.count(2...5)
            let width = try args.cropSide(args.values[0]), height = try args.cropSide(args.values[1])
            let gravity = args.values.count > 2 ? try args.gravity(Array(args.values[2...]), allowsSmart: true) : nil
            options.crop = CropOption(width: width, height: height, gravity: gravity)
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
            try args.count(1...1)
            options.autoRotate = try args.bool(args.values[0])
        case "rotate", "rot":
            try args.count(1...1)
            guard let angle = Int(args.values[0]), angle % 90 == 0 else {
                throw args.malformed("the angle must be a multiple of 90")
            }
            options.rotate = ((angle % 360) + 360) % 360
        case "background", "bg":
            options.background = try args.color()
        case "blur", "bl":
            try args.count(1...1)
            options.blur = try args.nonNegative(args.values[0], max: 100)
        case "sharpen", "sh":
            try args.count(1...1)
            options.sharpen = try args.nonNegative(args.values[0], max: 100)
        case "pixelate", "pix":
            try args.count(1...1)
            options.pixelate = try args.size(args.values[0])
        case "quality", "q":
            try args.count(1...1)
            options.quality = try args.quality(args.values[0])
        case "format_quality", "fq":
            guard !args.values.isEmpty, args.values.count % 2 == 0 else { throw args.malformed("expected format:quality pairs") }
            for index in stride(from: 0, to: args.values.count, by: 2) {
                guard let format = OutputFormat(extension: args.values[index]) else {
                    throw args.malformed("unknown format \(quoted(args.values[index]))")
                }
                options.formatQuality[format.rawValue] = try args.quality(args.values[index + 1])
            }
        case "max_bytes", "mb":
            try args.count(1...1)
            options.maxBytes = try args.size(args.values[0])
        case "format", "f", "ext":
            try args.count(1...1)
            if args.values[0].isEmpty { options.format = nil; break }
            guard let format = OutputFormat(extension: args.values[0]) else {
                throw args.malformed("unknown format \(quoted(args.values[0]))")
            }
            options.format = format
        case "strip_metadata", "sm":
            try args.count(1...1)
            options.stripMetadata = try args.bool(args.values[0])
        case "keep_copyright", "kcr":
            try args.count(1...1)
            options.keepCopyright = try args.bool(args.values[0])
        case "strip_color_profile", "scp":
            try args.count(1...1)
            options.stripColorProfile = try args.bool(args.values[0])
        case "cachebuster", "cb":
            try args.count(1...1)
            options.cacheBuster = args.values[0]
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
            try args.count(1...1)
            options.returnAttachment = try args.bool(args.values[0])
        case "preset", "pr":
            try args.count(1...16)
            guard depth < 4 else { throw args.malformed("presets nest too deep") }
            for preset in args.values {
                guard let segments = presets[preset] else { throw args.malformed("unknown preset \(quoted(preset))") }
                for segment in segments { try apply(segment, to: &options, depth: depth + 1) }
            }
        default:
            throw ServeError.badRequest("unknown option \(quoted(name))")
        }
    }

    private func applyExtend(_ values: [String], option: String, to options: inout ProcessingOptions) throws(ServeError) {
        let args = Arguments(option: option, values: values)
        try args.count(1...4)
        options.extend = try args.bool(values[0])
        if values.count > 1 {
            let gravity = try args.gravity(Array(values[1...]), allowsSmart: false)
            options.extendGravity = gravity
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

    func count(_ range: ClosedRange<Int>) throws(ServeError) {
        guard range.contains(values.count) else {
            throw malformed(range.lowerBound == range.upperBound
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

    /// `type[:x_offset:y_offset]`, `fp:x:y` or `sm`.
    func gravity(_ values: [String], allowsSmart: Bool) throws(ServeError) -> Gravity {
        guard let type = values.first else { throw malformed("expected a gravity") }
        switch type {
        case "sm":
            guard allowsSmart, values.count == 1 else { throw malformed("smart gravity takes no arguments here") }
            return .smart
        case "fp":
            guard values.count == 3, let x = Double(values[1]), let y = Double(values[2]),
                  (0...1).contains(x), (0...1).contains(y) else {
                throw malformed("a focus point is fp:x:y with x and y from 0 to 1")
            }
            return .focusPoint(x: x, y: y)
        default:
            guard let point = CompassPoint(rawValue: type) else { throw malformed("unknown gravity \(quoted(type))") }
            guard values.count <= 3 else { throw malformed("a gravity takes at most two offsets") }
            var offsets = [0.0, 0.0]
            for (index, value) in values.dropFirst().enumerated() {
                guard let number = Double(value), number.isFinite, abs(number) <= 100_000 else {
                    throw malformed("\(quoted(value)) is not an offset")
                }
                offsets[index] = number
            }
            return .compass(point, xOffset: offsets[0], yOffset: offsets[1])
        }
    }

    /// `r:g:b` (0…255 each) or `rrggbb`.
    func color() throws(ServeError) -> BackgroundColor? {
        if values.count == 1 {
            if values[0].isEmpty { return nil }
            guard values[0].utf8.count == 6, let bytes = Hex.decode(values[0]) else {
                throw malformed("\(quoted(values[0])) is not a colour (rrggbb or r:g:b)")
            }
            return BackgroundColor(red: bytes[0], green: bytes[1], blue: bytes[2])
        }
        guard values.count == 3 else { throw malformed("expected r:g:b or rrggbb") }
        var channels: [UInt8] = []
        for value in values {
            guard let number = UInt8(value) else { throw malformed("\(quoted(value)) is not a channel from 0 to 255") }
            channels.append(number)
        }
        return BackgroundColor(red: channels[0], green: channels[1], blue: channels[2])
    }
}

/// `value` in quotes, cut to 40 characters, for a one-line reason.
func quoted(_ value: String) -> String {
    let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
    return "\"\(cut)\""
}
