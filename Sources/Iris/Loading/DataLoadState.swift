import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession load in flight: where its events go, how much arrived, and the first bytes
/// held back until there are enough to tell an image from an HTML page or JSON.
struct DataLoadState {
    /// Bytes held back before the body is checked.
    static let sniffLength = 64

    let url: URL?
    /// The request's timeout: the most seconds without bytes.
    let timeout: TimeInterval?
    /// The most bytes the body may have.
    let byteLimit: Int?
    let continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation
    var expectedLength: Int?
    /// Whether the response (status and headers) has arrived.
    var hasResponse = false
    /// The clock the idle timeout runs on.
    let clock: LoadClock
    /// When (on ``clock``) the response or the last piece of the body arrived (or the load started).
    private(set) var lastActivity: Duration
    /// The session task, cancelled when the watchdog ends the load.
    var task: URLSessionTask?
    /// Ends the load after ``timeout`` seconds without activity (see
    /// ``URLSessionDataLoaderDelegate``); cancelled when the load ends.
    var watchdog: Task<Void, Never>?
    private(set) var receivedLength = 0
    private var head = Data()
    private var isChecked = false

    init(
        url: URL?, timeout: TimeInterval? = nil, clock: LoadClock = .continuous, byteLimit: Int? = nil,
        continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation
    ) {
        self.url = url
        self.timeout = timeout
        self.clock = clock
        lastActivity = clock.now()
        self.byteLimit = byteLimit
        self.continuation = continuation
    }

    /// What to do with a piece of the body.
    enum Action {
        /// Held back; nothing to pass on yet.
        case wait
        /// Pass this on.
        case yield(Data)
        /// The body is not an image.
        case reject(ImageFormat)
        /// The body passed ``byteLimit``: `received` bytes so far.
        case overLimit(received: Int, limit: Int)
    }

    /// Notes that something arrived: the watchdog starts counting again.
    mutating func noteActivity() {
        lastActivity = clock.now()
    }

    /// When (on ``clock``) the load times out unless something arrives first.
    var idleDeadline: Duration? {
        guard let timeout, timeout > 0, timeout.isFinite else { return nil }
        return lastActivity + .seconds(timeout)
    }

    /// Passes the body on unchecked: it is a range (`206`), not the start of the resource.
    mutating func skipsFormatCheck() {
        isChecked = true
    }

    /// Takes the next piece of the body.
    mutating func received(_ data: Data) -> Action {
        noteActivity()
        receivedLength += data.count
        if let byteLimit, receivedLength > byteLimit { return .overLimit(received: receivedLength, limit: byteLimit) }
        if isChecked { return .yield(data) }
        head.append(data)
        guard head.count >= Self.sniffLength else { return .wait }
        return check()
    }

    /// The body ended without a transport error: the held-back bytes, or why it failed.
    mutating func completed() -> Result<Data?, ImageError> {
        if let expectedLength, receivedLength < expectedLength {
            return .failure(connectionLost(expected: expectedLength))
        }
        if isChecked || head.isEmpty { return .success(nil) }
        switch check() {
        case .reject(let format): return .failure(.notAnImage(format, url: url))
        case .yield(let data): return .success(data)
        case .wait, .overLimit: return .success(nil)  // check() never gives .overLimit
        }
    }

    /// The ``ImageError`` for a transport error.
    func failure(for error: any Error) -> ImageError {
        if let error = error as? ImageError { return error }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled { return .cancelled }
        // Before "connection lost": a server that stalls mid-body timed out, it did not hang up.
        if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
            return .network(reason: timedOutReason, url: url, cause: ErrorCause(error))
        }
        if let expectedLength, receivedLength < expectedLength, receivedLength > 0 || nsError.code == NSURLErrorNetworkConnectionLost {
            return connectionLost(expected: expectedLength, cause: error)
        }
        return .network(reason: nsError.localizedDescription, url: url, cause: ErrorCause(error))
    }

    /// "timed out waiting for the server (5 s)" before the response, "timed out: no data for
    /// 5 s after 4,096 of 91,233 bytes" after it.
    private var timedOutReason: String {
        let seconds = timeout.map { $0 == $0.rounded() ? "\(Int($0)) s" : "\($0) s" }
        guard hasResponse || receivedLength > 0 else {
            return "timed out waiting for the server" + (seconds.map { " (\($0))" } ?? "")
        }
        let progress = expectedLength.map { "\(receivedLength.grouped) of \($0.grouped) bytes" } ?? "\(receivedLength.grouped) bytes"
        return "timed out: no data" + (seconds.map { " for \($0)" } ?? "") + " after " + progress
    }

    private func connectionLost(expected: Int, cause: (any Error)? = nil) -> ImageError {
        .network(
            reason: "connection lost after \(receivedLength.grouped) of \(expected.grouped) bytes", url: url,
            cause: ErrorCause(cause))
    }

    private mutating func check() -> Action {
        isChecked = true
        let format = FormatSniffer.format(of: head)
        if format == .html || format == .json { return .reject(format) }
        defer { head = Data() }
        return .yield(head)
    }
}
