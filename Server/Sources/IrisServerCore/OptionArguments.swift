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
