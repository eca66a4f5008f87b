import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FetchDataStage {
    /// What a load gave.
    enum Loaded {
        /// New bytes: the service's rendition when routed through one, else the original (after
        /// the service failed, ``FetchedData/serviceFallback`` says so).
        case fetched(FetchedData)
        /// `304 Not Modified` to a conditional request: the stored bytes stand. Its metadata is
        /// the 304's own fields and times, which renew the stored entry's.
        case notModified(HTTPCacheMetadata)
        /// Nothing.
        case failure(ImageError)
    }

    /// Reads or loads the source's bytes: a file, a `.data` closure, the image service's
    /// rendition of a URL (the original if the service fails), or the data loader's stream
    /// (with progress and, when progressive decoding is on, partial data). `revalidating`, the
    /// stored entry and what it allows, makes the request conditional on its validators; a
    /// failure the stored entry may stand in for is then returned as it is, not fallen back from.
    func loadSourceData(revalidating stored: (entry: DataCacheEntry, validity: HTTPCacheValidity)?) async -> Loaded {
        let conditions = stored?.entry.metadata?.conditionalHeaders ?? [:]
        if let routing = graph.serviceRouting, let rendition = keys.data.rendition, case .url(let source) = request.source {
            return await loadRendition(
                rendition.rendition, of: source, through: routing, conditions: conditions, validity: stored?.validity)
        }
        switch request.source {
        case .file(let url):
            do {
                return .fetched(FetchedData(data: try Data(contentsOf: url, options: .mappedIfSafe), origin: .loaded))
            } catch {
                return .failure(
                    .dataLoadingFailed(reason: "cannot read \(url.path): \(ErrorCause.reason(error))", cause: ErrorCause(error)))
            }
        case .data(_, let load):
            return await loadClosure(load)
        case .url(let url):
            return await stream(URLRequest(url: url), conditions: conditions)
        case .urlRequest(let urlRequest):
            return await stream(urlRequest, conditions: conditions)
        }
    }

    /// What a `.data` closure returns, within the byte limit.
    private func loadClosure(_ load: @Sendable () async throws -> Data) async -> Loaded {
        do {
            let data = try await load()
            if Task.isCancelled { return .failure(.cancelled) }
            let limit = graph.configuration.maxDataBytes
            guard data.count <= limit else { return .failure(.overLimit(.encodedBytes(bytes: data.count, limit: limit))) }
            return .fetched(FetchedData(data: data, origin: .loaded))
        } catch let error as ImageError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(.dataLoadingFailed(reason: ErrorCause.reason(error), cause: ErrorCause(error)))
        }
    }

    /// Collects the loader's chunks, reporting progress after each. A download cancelled after
    /// some bytes is kept for resuming when the loader and the server allow it; a kept one is
    /// resumed. A response announcing more than ``ImagePipeline/Configuration/maxDataBytes``,
    /// or a body growing past it, fails at once: a loader that can stops the body itself
    /// (it is passed the limit), so unread bytes cannot pile up; for any other, returning
    /// here ends the iteration, which cancels the load.
    ///
    /// `conditions` (`If-None-Match`, `If-Modified-Since`) make the request conditional: a `304`
    /// is then ``Loaded/notModified(_:)``. The response's caching fields and the request's and
    /// response's times (on the HTTP cache's clock) become the result's ``HTTPCacheMetadata``.
    func stream(_ request: URLRequest, conditions: [String: String], onResponse: (@Sendable () -> Void)? = nil) async -> Loaded {
        var request = request
        for (field, value) in conditions { request.setValue(value, forHTTPHeaderField: field) }
        var data = Data()
        var total: Int?
        let configuration = graph.configuration
        // Previews are made of progressive JPEG scans, counted only when previews are asked for.
        var scans = configuration.isProgressiveDecodingEnabled ? JPEGScanCounter() : nil
        let clock = graph.caches.http.now
        let requestTime = clock()
        var metadata: HTTPCacheMetadata?
        let limit = configuration.maxDataBytes
        let resumable = ResumableLoad(
            request: request, loader: configuration.dataLoader, store: configuration.resumableData,
            byteLimit: limit)
        do {
            for try await event in resumable.events() {
                switch event {
                case .response(let response):
                    onResponse?()
                    let answer = HTTPCacheMetadata(headers: response.headers, requestTime: requestTime, responseTime: clock())
                    if response.statusCode == 304 {
                        return conditions.isEmpty ? .failure(.httpStatus(code: 304, url: request.url)) : .notModified(answer)
                    }
                    if response.statusCode != nil { metadata = answer }
                    let expectedLength = response.expectedLength
                    if let expectedLength, expectedLength > limit {
                        return .failure(.overLimit(.encodedBytes(bytes: expectedLength, limit: limit)))
                    }
                    total = expectedLength
                    if let expectedLength, expectedLength > 0 { data.reserveCapacity(min(expectedLength, 64 << 20)) }
                    publish(ImageTask.Progress(completed: 0, total: total))
                case .chunk(let chunk):
                    if chunk.count > limit - data.count {
                        return .failure(.overLimit(.encodedBytes(bytes: data.count + chunk.count, limit: limit)))
                    }
                    data.append(chunk)
                    publish(ImageTask.Progress(completed: data.count, total: total))
                    if scans?.append(chunk) == true { publishPartial(data) }
                }
            }
        } catch let error as ImageError {
            if error == .cancelled { resumable.keep(data) }
            if case .httpStatus(304, _) = error, !conditions.isEmpty {
                // A loader that reports a 304 as an error: not modified, with no fields to renew.
                return .notModified(HTTPCacheMetadata(headers: [:], requestTime: requestTime, responseTime: clock()))
            }
            return .failure(error)
        } catch is CancellationError {
            resumable.keep(data)
            return .failure(.cancelled)
        } catch {
            if Task.isCancelled { resumable.keep(data) }
            return .failure(
                Task.isCancelled
                    ? .cancelled
                    : .network(
                        reason: ErrorCause.reason(error), url: request.url,
                        cause: ErrorCause(error)))
        }
        if Task.isCancelled {
            resumable.keep(data)
            return .failure(.cancelled)
        }
        return .fetched(FetchedData(data: data, origin: .loaded, httpMetadata: metadata))
    }

}
