import Iris

/// How the service serves SVG sources: always rasterised (by Iris's librsvg decoder, which
/// fetches nothing a document references), never passed through.
///
/// imgproxy returns an SVG as it is when no output format is asked (and for `raw` and
/// `skip_processing`), sanitised first. An SVG served from this origin as it is could run its
/// scripts when opened as a document; the service has no sanitiser, so it serves the
/// rasterisation instead (PNG unless a format is asked or negotiated), as imgproxy does with
/// `IMGPROXY_ALWAYS_RASTERIZE_SVG`.
enum SVGSources {
    /// Whether a source of `format` may be served as it is (`raw`, `skip_processing`): every
    /// format but SVG.
    static func servedAsIs(_ format: ImageFormat) -> Bool { format != .svg }
}
