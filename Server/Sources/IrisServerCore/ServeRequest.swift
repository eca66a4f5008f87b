import Iris
/// One image request to the service, parsed and checked: what to load, how to process it and
/// which format to write (`nil`: negotiated from `Accept`).
public struct ServeRequest: Sendable, Hashable {
    /// The source.
    public var source: SourceReference
    /// The processing options.
    public var options: ProcessingOptions
    /// The path after the signature segment, as received: the ETag and cache key hash it.
    public var signedPath: String

    /// Makes a request.
    public init(source: SourceReference, options: ProcessingOptions, signedPath: String) {
        self.source = source
        self.options = options
        self.signedPath = signedPath
    }

    /// The format asked for by the extension or the `format` option, if any.
    public var requestedFormat: OutputFormat? { options.format }
}
