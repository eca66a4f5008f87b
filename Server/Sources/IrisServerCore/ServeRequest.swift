import Iris
/// One image request to the service, parsed and checked: what to load, how to process it and
/// which format to write (`nil`: negotiated from `Accept`).
package struct ServeRequest: Sendable, Hashable {
    /// The source.
    package var source: SourceReference
    /// The processing options.
    package var options: ProcessingOptions
    /// The path after the signature segment, as received: the ETag and cache key hash it.
    package var signedPath: String

    /// Makes a request.
    package init(source: SourceReference, options: ProcessingOptions, signedPath: String) {
        self.source = source
        self.options = options
        self.signedPath = signedPath
    }

    /// The format asked for by the extension or the `format` option, if any.
    package var requestedFormat: OutputFormat? { options.format }
}
