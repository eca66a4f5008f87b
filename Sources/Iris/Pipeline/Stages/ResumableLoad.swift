import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One network load of the data stage, resumed from kept bytes when a store is configured: it
/// asks only for the rest of a download kept earlier, and keeps its own if it is cancelled.
///
/// Resuming is done here, for any ``DataLoading``: a GET whose URL has kept bytes goes out with
/// `Range: bytes=N-` and `If-Range: <validator>`. A `206` whose `Content-Range` continues the
/// kept bytes gives them first, then the rest; anything else that answers the range (a `206`
/// of another range, or `416`, reported by the loader as ``ImageError/httpStatus(code:url:)``
/// or as a response) cancels that load and starts again without a range; a `200` is the whole
/// new body (the resource changed, or the server ignores ranges). Either way the events carry
/// the whole body from its first byte.
struct ResumableLoad: Sendable {
    let request: URLRequest
    let loader: any DataLoading
    let store: ResumableDataStore?
    /// Passed to the loader, which may stop a body that passes it itself.
    let byteLimit: Int?
    /// What the response said a resume needs: validator and whole length.
    private let resumeInfo = LockedState<(validator: String?, totalLength: Int?)>((nil, nil))

    init(request: URLRequest, loader: any DataLoading, store: ResumableDataStore?, byteLimit: Int? = nil) {
        self.request = request
        self.loader = loader
        self.store = store
        self.byteLimit = byteLimit
    }

    /// Kept bytes are stored by URL: the same resource, whatever the request's cache key.
    private var key: String? { request.url?.absoluteString }

    /// The validator the response named (strong `ETag`, or `Last-Modified`, with
    /// `Accept-Ranges: bytes`): `nil` before the response, or when it cannot be resumed.
    var validator: String? { resumeInfo.withLock { $0.validator } }

    /// The loader's events: the whole body, resumed from kept bytes when there are some.
    func events() -> Events {
        var partial = store.flatMap { store in key.flatMap { store.take(for: $0) } }
        if (request.httpMethod ?? "GET") != "GET" { partial = nil }
        return Events(load: self, partial: partial)
    }

    /// Keeps `data` (the body so far) for a later load, if the response allows resuming.
    func keep(_ data: Data) {
        guard let store, let key, !data.isEmpty else { return }
        let (validator, totalLength) = resumeInfo.withLock { $0 }
        guard let validator, totalLength.map({ data.count < $0 }) ?? true else { return }
        store.keep(ResumableData(data: data, validator: validator, totalLength: totalLength), for: key)
    }

    /// Notes what `response` (with the whole length) says a later resume needs.
    fileprivate func note(_ response: DataLoadingResponse) {
        resumeInfo.withLock { $0 = (ResumableData.validator(of: response), response.expectedLength) }
    }

    /// The events of one ``ResumableLoad``: iterating starts the load; dropping the iterator
    /// (or cancelling the task iterating) cancels it.
    struct Events: AsyncSequence {
        typealias Element = DataLoadingEvent
        typealias Failure = any Error

        fileprivate let load: ResumableLoad
        /// The kept bytes to resume from, if any.
        fileprivate let partial: ResumableData?

        func makeAsyncIterator() -> Iterator {
            Iterator(load: load, attempt: partial)
        }
    }

    /// Walks the loader's events, continuing kept bytes or starting over.
    struct Iterator: AsyncIteratorProtocol {
        private let load: ResumableLoad
        /// Kept bytes whose range request has not been answered yet.
        private var attempt: ResumableData?
        /// The loader's stream now; replacing it cancels the one before.
        private var upstream: AsyncThrowingStream<DataLoadingEvent, any Error>.Iterator
        /// Kept bytes a continuing `206` has announced, given right after its response.
        private var keptToGive: Data?
        /// The whole length, once a `206` continued kept bytes and said it (or its own length).
        private var continuedTotal: Int?
        /// Whether a `206` continued kept bytes.
        private var isContinued = false
        /// Body bytes given so far, kept bytes included.
        private var given = 0

        fileprivate init(load: ResumableLoad, attempt: ResumableData?) {
            self.load = load
            self.attempt = attempt
            let request = attempt.map { $0.resumeRequest(load.request) } ?? load.request
            upstream = load.loader.loadData(for: request, byteLimit: load.byteLimit).makeAsyncIterator()
        }

        mutating func next() async throws -> DataLoadingEvent? {
            if let kept = keptToGive {
                keptToGive = nil
                given += kept.count
                return .chunk(kept)
            }
            while true {
                let event: DataLoadingEvent?
                do {
                    event = try await upstream.next()
                } catch {
                    if attempt != nil, case .httpStatus(416, _)? = error as? ImageError {
                        startOver()
                        continue
                    }
                    throw isContinued ? described(error) : error
                }
                guard let event else {
                    if isContinued, let continuedTotal, given < continuedTotal { throw connectionLost(cause: .none) }
                    return nil
                }
                switch event {
                case .chunk(let chunk):
                    given += chunk.count
                    return event
                case .response(var response):
                    guard let partial = attempt else {
                        load.note(response)
                        return event
                    }
                    attempt = nil
                    let contentRange = response.value(forHTTPHeaderField: "Content-Range")
                    if response.statusCode == 206, partial.isContinued(by: contentRange) {
                        response.expectedLength =
                            ResumableData.totalLength(fromContentRange: contentRange)
                            ?? response.expectedLength.map { $0 + partial.data.count }
                        load.note(response)
                        isContinued = true
                        continuedTotal = response.expectedLength
                        keptToGive = partial.data
                        return .response(response)
                    }
                    if response.statusCode == 206 || response.statusCode == 416 {
                        startOver()
                        continue
                    }
                    // The whole body (the resource changed, or ranges are ignored), or an error.
                    load.note(response)
                    return event
                }
            }
        }

        /// Cancels the range request and loads the whole body instead.
        private mutating func startOver() {
            attempt = nil
            upstream = load.loader.loadData(for: load.request, byteLimit: load.byteLimit).makeAsyncIterator()
        }

        /// A transport failure of a continued download, in terms of the whole body ("connection
        /// lost after 60,000 of 200,000 bytes", not of the range), as a single request's would
        /// be: the loader's ``ImageError/network(reason:url:cause:)``, or its own error (a
        /// `URLError`). A timeout or a cancellation keeps the loader's words.
        private func described(_ error: any Error) -> any Error {
            guard let continuedTotal, given < continuedTotal, !Task.isCancelled else { return error }
            let cause: ErrorCause
            switch error {
            case ImageError.network(_, _, let underlying): cause = underlying
            case is ImageError, is CancellationError: return error
            default: cause = ErrorCause(error)
            }
            if let nsError = cause.error.map({ $0 as NSError }), nsError.domain == NSURLErrorDomain,
                nsError.code == NSURLErrorTimedOut || nsError.code == NSURLErrorCancelled
            {
                return error
            }
            return connectionLost(cause: cause)
        }

        private func connectionLost(cause: ErrorCause) -> ImageError {
            .network(
                reason: "connection lost after \(given.grouped) of \((continuedTotal ?? given).grouped) bytes",
                url: load.request.url, cause: cause)
        }
    }
}
