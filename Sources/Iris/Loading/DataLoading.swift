import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One event of a streamed load.
public enum DataLoadingEvent: Sendable {
    /// The response arrived (always first). `expectedLength` is nil when unknown.
    case response(statusCode: Int?, expectedLength: Int?, mimeType: String?)
    /// The next piece of the body.
    case chunk(Data)
}

/// Loads data for URL requests, streaming chunks so progress and previews can be shown.
///
/// The stream ends when the body is complete and throws ``ImageError`` on failure (HTTP status,
/// network, HTML instead of an image). Cancelling the consuming task cancels the load.
public protocol DataLoading: Sendable {
    /// Streams the response and body of `request`.
    func loadData(for request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error>
}

/// A loader that can continue a download where an earlier one stopped.
public protocol ResumableDataLoading: DataLoading {
    /// Streams `request`'s response and body like ``DataLoading/loadData(for:)``; with `partial`,
    /// asks only for the bytes after it (`Range`, `If-Range`). The stream always carries the whole
    /// body from its first byte: a continued download yields `partial`'s bytes first (so progress
    /// continues from there); a server that answers with the whole body (the resource changed or
    /// ranges are ignored), `416` or a range that does not continue `partial` gives the whole
    /// body of a fresh request.
    ///
    /// `onValidator` is called once the response arrives, before any body, with what a later
    /// load needs to resume this one: the validator (strong `ETag` or `Last-Modified`, with
    /// `Accept-Ranges: bytes`) and the whole length, or `nil` when it cannot be resumed.
    func loadData(for request: URLRequest, resuming partial: ResumableData?,
                  onValidator: @escaping @Sendable (_ validator: String?, _ totalLength: Int?) -> Void)
        -> AsyncThrowingStream<DataLoadingEvent, any Error>
}

/// A loader that stops a body itself once it passes a byte limit: the bytes a slow consumer has
/// not taken yet cannot pile up past it, whatever the server sends. The pipeline passes its
/// ``ImagePipeline/Configuration/maxDataBytes`` to loaders that can (``URLSessionDataLoader``);
/// for others it checks the bytes as it takes them.
protocol ByteLimitedDataLoading: ResumableDataLoading {
    /// ``ResumableDataLoading/loadData(for:resuming:onValidator:)``, failing with
    /// ``ImageError/overLimit(_:)`` (and cancelling the transfer) when the announced length or
    /// the bytes received pass `byteLimit`.
    func loadData(for request: URLRequest, resuming partial: ResumableData?, byteLimit: Int?,
                  onValidator: @escaping @Sendable (_ validator: String?, _ totalLength: Int?) -> Void)
        -> AsyncThrowingStream<DataLoadingEvent, any Error>
}
