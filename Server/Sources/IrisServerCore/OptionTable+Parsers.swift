import Foundation
import Iris

/// The parsers of the options that take several arguments, each as imgproxy reads them.
extension OptionTable {
    /// `resize:type:width:height:enlarge:extend...`
    static func resize(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...8)
        if let type = args.optional(0) { options.resizingType = try args.resizingType(type) }
        try sizeArguments(Arguments(option: args.option, values: Array(args.values.dropFirst())), &options)
    }

    /// `size:width:height:enlarge:extend...`
    static func size(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...7)
        try sizeArguments(args, &options)
    }

    /// `width:height:enlarge:extend...`, what `size` and `resize` share.
    private static func sizeArguments(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        if let width = args.optional(0) { options.width = try args.size(width) }
        if let height = args.optional(1) { options.height = try args.size(height) }
        if let enlarge = args.optional(2) { options.enlarge = try args.bool(enlarge) }
        if args.values.count > 3 { try extend(Array(args.values[3...]), option: args.option, to: &options) }
    }

    /// `extend:extend:gravity...`
    static func extend(_ values: [String], option: String, to options: inout ProcessingOptions) throws(ServeError) {
        let args = Arguments(option: option, values: values)
        try args.count(1...4)
        options.extend = try args.bool(values[0])
        if values.count > 1 {
            options.extendGravity = try args.gravity(Array(values[1...]), allowsSmart: false, previous: options.extendGravity)
        }
    }

    /// `extend_aspect_ratio:extend:gravity...`
    static func extendAspectRatio(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...4)
        options.extendAspectRatio = try args.bool(args.values[0])
        if args.values.count > 1 {
            options.extendAspectRatioGravity = try args.gravity(
                Array(args.values[1...]), allowsSmart: false, previous: options.extendAspectRatioGravity)
        }
    }

    /// `zoom:x:y` (one value: both).
    static func zoom(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...2)
        options.zoomX = try args.positive(args.values[0], max: 100)
        options.zoomY = args.values.count > 1 ? try args.positive(args.values[1], max: 100) : options.zoomX
    }

    /// `crop:width:height:gravity...`
    static func crop(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...5)
        let width = try args.optional(0).map { value throws(ServeError) in try args.cropSide(value) } ?? 0
        let height = try args.optional(1).map { value throws(ServeError) in try args.cropSide(value) } ?? 0
        let previous = options.crop?.gravity
        let gravity =
            args.values.count > 2
            ? try args.gravity(Array(args.values[2...]), allowsSmart: true, previous: previous ?? .center) : previous
        options.crop = CropOption(width: width, height: height, gravity: gravity)
    }

    /// `trim:threshold:colour:equal_hor:equal_ver` (an empty threshold: none).
    static func trim(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...4)
        guard let threshold = args.optional(0) else {
            options.trim = nil
            return
        }
        var trim = TrimOption(threshold: try args.nonNegative(threshold, max: 255))
        if let color = args.optional(1) { trim.color = try args.hexColor(color) }
        if let equal = args.optional(2) { trim.equalHorizontal = try args.bool(equal) }
        if let equal = args.optional(3) { trim.equalVertical = try args.bool(equal) }
        options.trim = trim
    }

    /// `padding:top:right:bottom:left`, CSS's order: missing sides repeat the given ones.
    static func padding(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...4)
        let sides = try args.values.map { value throws(ServeError) in try args.size(value) }
        let top = sides[0]
        let right = sides.count > 1 ? sides[1] : top
        let bottom = sides.count > 2 ? sides[2] : top
        let left = sides.count > 3 ? sides[3] : right
        options.padding = Padding(top: top, right: right, bottom: bottom, left: left)
    }

    /// `rotate:angle`, a multiple of 90.
    static func rotate(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...1)
        guard let angle = Int(args.values[0]), angle % 90 == 0 else {
            throw args.malformed("the angle must be a multiple of 90")
        }
        options.rotate = ((angle % 360) + 360) % 360
    }

    /// `flip:horizontal:vertical`
    static func flip(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...2)
        if let horizontal = args.optional(0) { options.flipHorizontal = try args.bool(horizontal) }
        if let vertical = args.optional(1) { options.flipVertical = try args.bool(vertical) }
    }

    /// `watermark:opacity:position:x:y:scale` (opacity 0: none).
    static func watermark(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...7)
        guard let opacity = Double(args.values[0]), (0...1).contains(opacity) else {
            throw args.malformed("the opacity is a number from 0 to 1")
        }
        if opacity == 0 {
            options.watermark = nil
            return
        }
        var mark = options.watermark ?? WatermarkOption(opacity: opacity)
        mark.opacity = opacity
        if let position = args.optional(1) { mark.position = try watermarkPosition(position, args) }
        if let x = args.optional(2) { mark.xOffset = try args.signed(x) }
        if let y = args.optional(3) { mark.yOffset = try args.signed(y) }
        if let scale = args.optional(4) { mark.scale = try args.positive(scale, max: 100) }
        options.watermark = mark
    }

    /// `re` (replicated) or a compass point.
    private static func watermarkPosition(_ position: String, _ args: Arguments) throws(ServeError) -> WatermarkOption.Position {
        if position == "re" { return .replicate }
        guard let point = CompassPoint(rawValue: position) else { throw args.malformed("unknown position \(quoted(position))") }
        return .compass(point)
    }

    /// `format_quality:format:quality:...`, in pairs.
    static func formatQuality(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        guard !args.values.isEmpty, args.values.count % 2 == 0 else { throw args.malformed("expected format:quality pairs") }
        for index in stride(from: 0, to: args.values.count, by: 2) {
            guard let format = OutputFormat(extension: args.values[index]) else {
                throw args.malformed("unknown format \(quoted(args.values[index]))")
            }
            options.formatQuality[format.rawValue] = try args.quality(args.values[index + 1])
        }
    }

    /// `format:extension` (empty: left to negotiation).
    static func format(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...1)
        if args.values[0].isEmpty {
            options.format = nil
            return
        }
        guard let format = OutputFormat(extension: args.values[0]) else {
            throw args.malformed("unknown format \(quoted(args.values[0]))")
        }
        options.format = format
    }

    /// `expires:unix_time`
    static func expires(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...1)
        guard let time = Int(args.values[0]) else { throw args.malformed("expected a Unix time") }
        options.expires = time
    }

    /// `filename:name:encoded` (percent-encoded, or base64url when `encoded`).
    static func filename(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
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
    }

    /// `skip_processing:format:...`
    static func skipProcessing(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        for value in args.values {
            guard let format = SourceFormatName(value) else { throw args.malformed("unknown format \(quoted(value))") }
            options.skipProcessing.insert(format.name)
        }
    }

    /// `max_animation_frames:count`, above 0.
    static func maxAnimationFrames(_ args: Arguments, _ options: inout ProcessingOptions) throws(ServeError) {
        try args.count(1...1)
        let frames = try args.wholeNumber(args.values[0])
        guard frames > 0 else { throw args.malformed("the number of frames must be above 0") }
        options.limits.animationFrames = frames
    }
}
