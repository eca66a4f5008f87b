import Foundation

/// The client hints of a request, as imgproxy reads them when client hints are on: the
/// device pixel ratio (`Sec-CH-DPR`, else `DPR`: above 0, at most 8) and the slot's width in
/// device pixels (`Sec-CH-Width`, else `Width`: a whole number above 0). They are the
/// defaults of a URL's options: the dpr, and the width in CSS pixels (the hinted width over
/// the dpr); a URL's own `dpr` or `width` overrides them.
package struct ClientHints: Sendable, Hashable {
    /// The device pixel ratio, if hinted and valid.
    package var dpr: Double?
    /// The slot's width in device pixels, if hinted and valid.
    package var width: Int?

    /// The hints from the headers' values (invalid ones are ignored).
    package init(dpr: String? = nil, width: String? = nil) {
        if let value = dpr.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), value > 0, value <= 8 { self.dpr = value }
        if let value = width.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), value > 0 { self.width = value }
    }

    /// Whether no hint was given.
    package var isEmpty: Bool { dpr == nil && width == nil }

    /// The options a URL starts from under these hints.
    package var defaults: ProcessingOptions {
        var options = ProcessingOptions()
        if let dpr { options.dpr = dpr }
        if let width { options.width = Int((Double(width) / (dpr ?? 1)).rounded()) }
        return options
    }
}
