import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads images over HTTP(S) with `URLSession`, streaming each piece of the body as it arrives.
///
/// One loader owns one session. Failures finish the stream with an ``ImageError``:
/// - a status outside 200–299: ``ImageError/httpStatus(code:url:)`` (the body is not read),
///   except `304 Not Modified`, the answer to a conditional request: its response is passed on
///   and the stream ends, with no body;
/// - a successful response whose first bytes are an HTML page or JSON:
///   ``ImageError/notAnImage(_:url:)``;
/// - transport failures (refused, reset, timed out, the connection closing before the announced
///   `Content-Length`): ``ImageError/network(reason:url:cause:)`` with a readable reason, such as
///   "connection lost after 4,096 of 91,233 bytes" or, for a server that stalls mid-body,
///   "timed out: no data for 60 s after 4,096 of 91,233 bytes".
///
/// Given a `byteLimit`, a response announcing more, or a body growing past it, fails with
/// ``ImageError/overLimit(_:)`` and the transfer is cancelled at once, whether its bytes were
/// read or not.
///
/// The loader sends each request as it is and passes on the response's headers; resuming a
/// download (`Range`, `If-Range`) is the pipeline's work (see ``DataLoading``). A `206`'s body
/// is not checked for HTML or JSON: it does not start the resource.
///
/// Cancelling the task that consumes ``loadData(for:byteLimit:)`` cancels the request.
public final class URLSessionDataLoader: DataLoading, Sendable {
    /// The most seconds a request may wait for the next bytes before it fails as timed out.
    public let timeout: TimeInterval

    private let session: URLSession
    private let delegate: URLSessionDataLoaderDelegate
    private let clock: LoadClock

    /// Makes a loader with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration (copied: later changes have no effect).
    ///     Its `urlCache` is not used, on any platform: the pipeline's
    ///     ``ImagePipeline/Configuration/dataCache`` is the one store, and the pipeline sends
    ///     conditional requests itself.
    ///   - timeout: Seconds without any bytes (waiting for the response, or between pieces of
    ///     the body: a server that stalls mid-body) after which a request fails with
    ///     ``ImageError/network(reason:url:cause:)``, its `urlErrorCode` `.timedOut`. Fractions of a
    ///     second count, on Linux too (the loader times loads itself). A request's own
    ///     `timeoutInterval`, when shorter and set to something other than `URLRequest`'s default
    ///     (60 s, which every `URLRequest(url:)` carries), shortens it for that request.
    public convenience init(configuration: URLSessionConfiguration = .default, timeout: TimeInterval = 60) {
        self.init(configuration: configuration, timeout: timeout, clock: .continuous)
    }

    /// A loader whose timeouts run on `clock` (a test's clock, which it moves itself).
    convenience init<C: Clock>(configuration: URLSessionConfiguration = .default, timeout: TimeInterval = 60, clock: C)
    where C.Duration == Duration {
        self.init(configuration: configuration, timeout: timeout, clock: LoadClock(clock))
    }

    private init(configuration: URLSessionConfiguration, timeout: TimeInterval, clock: LoadClock) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.timeoutIntervalForRequest = Self.backstop(for: timeout, clock: clock)
        // One store: the pipeline's disk cache keeps the data with its HTTP metadata and sends
        // the conditional requests itself, so URLSession neither keeps a second copy nor answers
        // from one. (On Linux a URLCache also traps: swift-corelibs-foundation looks a task up in
        // it on a background queue, and a cancel landing meanwhile reaches a task already gone
        // from the session's registry.)
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.timeout = timeout
        self.clock = clock
        delegate = URLSessionDataLoaderDelegate(clock: clock)
        // A nil delegate queue is a serial one: each task's events arrive in order.
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// `URLRequest`'s default `timeoutInterval` (60 s).
    private static let defaultRequestTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    /// The `timeoutInterval` `request` was given, or nil when it has the default one: every
    /// `URLRequest(url:)` carries 60 s, which must not cut a longer ``timeout``.
    private static func ownTimeout(of request: URLRequest) -> TimeInterval? {
        request.timeoutInterval == defaultRequestTimeout ? nil : request.timeoutInterval
    }

    /// The session's own timeout: a second above `timeout`, rounded up to whole seconds
    /// (swift-corelibs-foundation drops the fraction, and would make 0.5 s zero), so the
    /// delegate's exact watchdog acts first. When the watchdog runs on a clock other than real
    /// time (a test's), the session's timeout is only a hang detector: an hour.
    static func backstop(for timeout: TimeInterval, clock: LoadClock) -> TimeInterval {
        guard timeout > 0, timeout.isFinite else { return timeout }
        guard clock.isWallClock else { return 3600 }
        return timeout.rounded(.up) + 1
    }

    deinit {
        // Lets running loads finish (their streams hold their tasks), then releases the delegate.
        session.finishTasksAndInvalidate()
    }

    /// Streams the response and body of `request`, failing with ``ImageError/overLimit(_:)``
    /// and cancelling the transfer as soon as the announced length or the bytes received pass
    /// `byteLimit`; see the type's documentation for the other errors.
    public func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: DataLoadingEvent.self)
        var sent = request
        let idleTimeout = min(Self.ownTimeout(of: request) ?? timeout, timeout)
        // The delegate's watchdog times the load out; the session's timer is only a backstop.
        sent.timeoutInterval = Self.backstop(for: idleTimeout, clock: clock)
        let task = session.dataTask(with: sent)
        delegate.register(task, url: request.url, timeout: idleTimeout, byteLimit: byteLimit, continuation: continuation)
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        task.resume()
        return stream
    }
}
