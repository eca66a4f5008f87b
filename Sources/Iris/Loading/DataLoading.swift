import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One event of a streamed load.
public enum DataLoadingEvent: Sendable {
    /// The response arrived (always first, once).
    case response(DataLoadingResponse)
    /// The next piece of the body.
    case chunk(Data)
}

/// Loads data for URL requests, streaming chunks so progress and previews can be shown.
///
/// A loader implements one method, ``loadData(for:byteLimit:)``: it sends the request as it is
/// and streams what comes back. The stream ends when the body is complete and throws
/// ``ImageError`` on failure (HTTP status, network, HTML instead of an image). Cancelling the
/// consuming task, or dropping the stream's iterator, cancels the load.
///
/// Everything else is the pipeline's work, for any loader:
/// - **Resuming** (``ImagePipeline/Configuration/resumableData``): the pipeline adds `Range`
///   and `If-Range` to a request whose earlier download was cancelled, checks the `206`'s
///   `Content-Range`, and loads again without a range when the server does not continue the
///   kept bytes (`200`, `416`, or another range). It reads the validator from the
///   ``DataLoadingResponse/headers``, so a loader should pass the response's headers on (at
///   least `ETag`, `Last-Modified`, `Accept-Ranges` and `Content-Range`). A `206`'s body is not
///   the start of the resource: do not sniff it for HTML or JSON.
/// - **Revalidation**: to revalidate stored data the pipeline adds `If-None-Match` /
///   `If-Modified-Since`; a loader passes a `304 Not Modified` on as a ``DataLoadingEvent/response(_:)``
///   (with its headers, which renew the stored entry's freshness) and ends the stream. A loader
///   that throws ``ImageError/httpStatus(code:url:)`` with 304 instead still works, without the
///   renewed headers.
/// - **The byte limit**: the pipeline fails a load whose announced length or body passes
///   ``ImagePipeline/Configuration/maxDataBytes`` and stops reading it. A loader that honours
///   `byteLimit` itself also stops the transfer at once, so bytes the pipeline has not taken
///   yet cannot pile up past it.
public protocol DataLoading: Sendable {
    /// Streams the response and body of `request`.
    ///
    /// - Parameters:
    ///   - request: The request to send, as it is (it may carry `Range` and `If-Range`).
    ///   - byteLimit: The most body bytes the caller takes, or `nil` for no limit. Advisory:
    ///     a loader that honours it finishes with ``ImageError/overLimit(_:)``
    ///     (``ImageError/LimitViolation/encodedBytes(bytes:limit:)``) and cancels the transfer
    ///     as soon as the announced length or the bytes received pass it; the pipeline checks
    ///     the limit either way.
    func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error>
}

extension DataLoading {
    /// Streams the response and body of `request`, with no byte limit.
    public func loadData(for request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        loadData(for: request, byteLimit: nil)
    }
}
