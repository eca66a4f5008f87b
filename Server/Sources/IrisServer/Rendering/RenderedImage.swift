import Foundation
import Iris
import IrisServerCore

/// How long each part of a render took, for `Server-Timing`.
package struct RenderTimings: Sendable, Equatable {
    /// Loading the source (the disk cache or the network).
    package var fetch: Duration = .zero
    /// Decoding at the target size.
    package var decode: Duration = .zero
    /// The processors.
    package var process: Duration = .zero
    /// Encoding the result.
    package var encode: Duration = .zero
    /// Whether the result cache had the result (`nil`: no result cache).
    package var resultCacheHit: Bool?
    /// Looking the result up in the result cache.
    package var resultCacheLookup: Duration = .zero

    /// Makes timings, all zero.
    package init() {}

    /// `fetch;dur=1.2, decode;dur=3.4, process;dur=0.5, encode;dur=2.0` (milliseconds), then
    /// `result-cache;desc=miss;dur=0.1` with a result cache; a hit is `result-cache;desc=hit;dur=0.1` alone.
    package var serverTiming: String {
        func ms(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return String(format: "%.1f", value)
        }
        let lookup = "result-cache;desc=\(resultCacheHit == true ? "hit" : "miss");dur=\(ms(resultCacheLookup))"
        if resultCacheHit == true { return lookup }
        let stages = "fetch;dur=\(ms(fetch)), decode;dur=\(ms(decode)), process;dur=\(ms(process)), encode;dur=\(ms(encode))"
        return resultCacheHit == false ? stages + ", " + lookup : stages
    }
}

/// What a render knows before decoding: enough to answer `If-None-Match` with a 304.
package struct PreparedRender: Sendable {
    /// The request.
    package var request: ServeRequest
    /// The source's bytes.
    package var data: Data
    /// The output format.
    package var format: OutputFormat
    /// Whether the format was chosen from `Accept` (`Vary: Accept`).
    package var negotiated: Bool
    /// Whether the source is animated (from its header).
    package var isAnimated: Bool
    /// The strong validator of the result.
    package var etag: String
    /// Timings so far (fetch).
    package var timings: RenderTimings
    /// The source's format when it is served as it is (`raw`, `skip_processing`).
    package var passthrough: SourceFormatName?
    /// The source's bytes with the header read while planning, for the render (`nil` when
    /// nothing is rendered: served as it is, or a 304 from the result cache).
    package var held: HeldImageData? = nil
}

extension PreparedRender {
    /// A source served as it is (`raw`, `skip_processing`): its own media type, and an ETag
    /// of its bytes.
    init(passingThrough request: ServeRequest, data: Data, source: SourceFormatName, timings: RenderTimings) {
        self.init(
            request: request, data: data, format: OutputFormat(extension: source.name) ?? .jpeg,
            negotiated: false, isAnimated: false,
            etag: ETag.of(request, format: "as-is " + source.name, data: data), timings: timings, passthrough: source)
    }
}

/// An encoded result.
package struct RenderedImage: Sendable {
    /// The request it answers.
    package var request: ServeRequest
    /// The bytes.
    package var data: Data
    /// Their format.
    package var format: OutputFormat
    /// Whether the format was chosen from `Accept`.
    package var negotiated: Bool
    /// The strong validator.
    package var etag: String
    /// Where the time went.
    package var timings: RenderTimings
    /// The source's format when the bytes are the source's, as they are (`raw`, `skip_processing`).
    package var passthrough: SourceFormatName? = nil

    /// The `Content-Type` of the bytes.
    package var mimeType: String { passthrough?.mimeType ?? format.mimeType }
}

extension RenderedImage {
    /// The source's bytes of a request served as it is (`raw`, `skip_processing`).
    init(passingThrough prepared: PreparedRender) {
        self.init(
            request: prepared.request, data: prepared.data, format: prepared.format,
            negotiated: false, etag: prepared.etag, timings: prepared.timings,
            passthrough: prepared.passthrough)
    }
}

/// The service's name and version (part of every ETag: a new version renders anew).
public enum IrisServerInfo {
    /// The version of the service and the library it renders with.
    public static let version = "0.1.0"
}
