import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import IrisServerCore
import NIOCore
import NIOPosix

/// The pipeline's loader for remote sources: AsyncHTTPClient, with the source policy applied
/// before every connection. Each hop (the first URL and every redirect, at most
/// ``maxRedirects``) is checked against the allow-list of URL prefixes, resolves its host,
/// refuses it when an address is of a kind not allowed,
/// and connects to the checked address only (no second lookup a rebinding DNS could answer
/// differently). The whole download, redirects included, has ``timeout``; the body is bounded
/// by the pipeline's byte limit while it streams. With ``hosts``, a download first takes a slot
/// of its source's host (``HostDownloadGate``): a slow host holds its own slots, not every one.
package struct SourceLoader: DataLoading {
    /// Which addresses may be connected to.
    package let policy: SourcePolicy
    /// Resolves host names.
    package let resolver: any AddressResolving
    /// The longest a download may take.
    package let timeout: Duration
    /// The most redirects followed.
    package let maxRedirects: Int
    /// Bounds each source host's downloads; `nil`: no bound.
    package let hosts: HostDownloadGate?

    /// Makes a loader.
    package init(
        policy: SourcePolicy, resolver: any AddressResolving = SystemAddressResolver(), timeout: Duration = .seconds(10),
        maxRedirects: Int = 10, hosts: HostDownloadGate? = nil
    ) {
        self.policy = policy
        self.resolver = resolver
        self.timeout = timeout
        self.maxRedirects = maxRedirects
        self.hosts = hosts
    }

    /// Streams the response and body of `request`, following redirects by hand, once its
    /// host has a slot for it (the wait is not part of the download's ``timeout``).
    package func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let permit = try await hostSlot(for: request.url)
                    defer { if let permit { hosts?.leave(permit) } }
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try await load(request, byteLimit: byteLimit, into: continuation) }
                        group.addTask {
                            try await Task.sleep(for: timeout)
                            throw ServeError(status: 504, "the source took too long")
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A slot of `url`'s host, waited for; `nil` without a bound.
    private func hostSlot(for url: URL?) async throws(ServeError) -> HostDownloadGate.Permit? {
        guard let hosts, let url, let host = HostDownloadGate.host(of: url) else { return nil }
        return try await hosts.enter(host)
    }

    private func load(
        _ request: URLRequest, byteLimit: Int?,
        into continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation
    ) async throws {
        guard var url = request.url else { throw ServeError.badRequest("the source has no URL") }
        var hops = 0
        while true {
            guard let host = url.host, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw ServeError.forbidden("the source redirects to a scheme that is not allowed")
            }
            // A redirect must stay on the allow-list too, not only on allowed addresses.
            try policy.checkAllowed(url)
            let addresses = try await resolver.addresses(of: host)
            try policy.checkAddresses(addresses)
            // Connecting may take the whole download's time (which bounds it anyway).
            let connectTimeout = TimeAmount.nanoseconds(
                Int64(clamping: timeout.components.seconds) * 1_000_000_000
                    + timeout.components.attoseconds / 1_000_000_000)
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: connectTimeout))
            // One connection attempt: a source that refuses is a 502 at once, not retried with
            // backoff until the connect timeout while the request holds its admission (each hop
            // has a client of its own, so there is no pool for retries to keep warm).
            configuration.connectionPool.retryConnectionEstablishment = false
            if IPAddress(host) == nil { configuration.dnsOverride = [host: addresses[0].description] }
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            do {
                let next = try await fetch(url, request: request, client: client, byteLimit: byteLimit, into: continuation)
                try await client.shutdown()
                guard let next else { return }
                hops += 1
                guard hops <= maxRedirects else { throw ServeError.notFound("the source redirects more than \(maxRedirects) times") }
                url = next
            } catch {
                try? await client.shutdown()
                if error is ServeError || error is ImageError || error is CancellationError { throw error }
                throw ServeError(status: 502, "the source could not be loaded")
            }
        }
    }

    /// Sends one hop; returns the redirect's target, or `nil` when the body was streamed (or,
    /// to a conditional request, the origin answered 304: that response, without a body).
    private func fetch(
        _ url: URL, request: URLRequest, client: HTTPClient, byteLimit: Int?,
        into continuation: AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation
    ) async throws -> URL? {
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        outgoing.headers.replaceOrAdd(name: "User-Agent", value: "iris-server")
        let response = try await client.execute(outgoing, deadline: .distantFuture)
        let status = Int(response.status.code)
        if (300..<400).contains(status), status != 304, let location = response.headers.first(name: "location") {
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                throw ServeError.notFound("the source redirects to an invalid URL")
            }
            return next
        }
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name] = field.value }
        if status == 304, request.isConditional {
            continuation.yield(.response(DataLoadingResponse(statusCode: status, headers: headers)))
            return nil
        }
        guard (200..<300).contains(status) else {
            throw ImageError.httpStatus(code: status, url: url)
        }
        let length = response.headers.first(name: "content-length").flatMap { Int($0) }
        if let length, let byteLimit, length > byteLimit {
            throw ImageError.overLimit(.encodedBytes(bytes: length, limit: byteLimit))
        }
        continuation.yield(
            .response(
                DataLoadingResponse(
                    statusCode: status, expectedLength: length,
                    mimeType: response.headers.first(name: "content-type"), headers: headers)))
        var received = 0
        for try await buffer in response.body {
            received += buffer.readableBytes
            if let byteLimit, received > byteLimit {
                throw ImageError.overLimit(.encodedBytes(bytes: received, limit: byteLimit))
            }
            continuation.yield(.chunk(Data(buffer.readableBytesView)))
        }
        return nil
    }
}

extension URLRequest {
    /// Whether the request carries a validator (`If-None-Match`, `If-Modified-Since`): a 304
    /// is then an answer, not a failure.
    var isConditional: Bool {
        value(forHTTPHeaderField: "If-None-Match") != nil || value(forHTTPHeaderField: "If-Modified-Since") != nil
    }
}
