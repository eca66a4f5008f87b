import Foundation
import IrisServerCore

/// How long each part of a render took, for `Server-Timing`.
public struct RenderTimings: Sendable, Equatable {
    /// Loading the source (the disk cache or the network).
    public var fetch: Duration = .zero
    /// Decoding at the target size.
    public var decode: Duration = .zero
    /// The processors.
    public var process: Duration = .zero
    /// Encoding the result.
    public var encode: Duration = .zero

    /// Makes timings, all zero.
    public init() {}

    /// `fetch;dur=1.2, decode;dur=3.4, process;dur=0.5, encode;dur=2.0` (milliseconds).
    public var serverTiming: String {
        func ms(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return String(format: "%.1f", value)
        }
        return "fetch;dur=\(ms(fetch)), decode;dur=\(ms(decode)), process;dur=\(ms(process)), encode;dur=\(ms(encode))"
    }
}

/// What a render knows before decoding: enough to answer `If-None-Match` with a 304.
public struct PreparedRender: Sendable {
    /// The request.
    public var request: ServeRequest
    /// The source's bytes.
    public var data: Data
    /// The output format.
    public var format: OutputFormat
    /// Whether the format was chosen from `Accept` (`Vary: Accept`).
    public var negotiated: Bool
    /// Whether the source is animated (from its header).
    public var isAnimated: Bool
    /// The strong validator of the result.
    public var etag: String
    /// Timings so far (fetch).
    public var timings: RenderTimings
}

/// An encoded result.
public struct RenderedImage: Sendable {
    /// The request it answers.
    public var request: ServeRequest
    /// The bytes.
    public var data: Data
    /// Their format.
    public var format: OutputFormat
    /// Whether the format was chosen from `Accept`.
    public var negotiated: Bool
    /// The strong validator.
    public var etag: String
    /// Where the time went.
    public var timings: RenderTimings
}

/// The service's name and version (part of every ETag: a new version renders anew).
public enum IrisServerInfo {
    /// The version of the service and the library it renders with.
    public static let version = "0.1.0"
}
