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
