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
