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

    /// The service's rendition; the original when the service fails on its own or is cooling off
    /// after a failure (unless stored data with `validity` may stand in for the rendition).
    private func loadRendition(
        _ rendition: ImageRendition, of source: URL, through routing: ServiceRouting, conditions: [String: String],
        validity: HTTPCacheValidity?
    ) async -> Loaded {
        let failure: ImageError
        if let skipped = routing.health.skipReason() {
            failure = skipped
        } else {
            switch await askService(rendition, of: source, through: routing, conditions: conditions) {
            case .answered(let loaded):
                routing.health.serviceAnswered()
                return loaded
            case .unanswered(let loaded):
                routing.health.askEndedUnanswered()
                return loaded
            case .failed(let error, let serviceIsDown):
                if serviceIsDown { routing.health.serviceFailed(error) } else { routing.health.serviceAnswered() }
                failure = error
            }
        }
        if let validity, Self.servesStale(validity, after: failure) { return .failure(failure) }
        guard !Task.isCancelled else { return .failure(.cancelled) }
        return await loadOriginal(of: source, insteadOfServiceAfter: failure)
    }

    /// How asking the service ended.
    private enum ServiceOutcome {
        /// The service answered: its rendition, a 304, or an error about the source.
        case answered(Loaded)
        /// The service was not asked, or not to the end: the URL could not be made, or the load
        /// was cancelled.
        case unanswered(Loaded)
        /// The service failed; the original is loaded instead. `serviceIsDown`: it cools off.
        case failed(ImageError, serviceIsDown: Bool)
    }

    /// Asks the service for `rendition` of `source`, within its timeout; after a 401 or 403, once
    /// more with the credentials made again (a rotated key).
    private func askService(
        _ rendition: ImageRendition, of source: URL, through routing: ServiceRouting, conditions: [String: String]
    ) async -> ServiceOutcome {
        var refusedURL: URL?
        while true {
            if let signerFailure = routing.health.signerFailure() { return .unanswered(.failure(signerFailure)) }
            let urlRequest: URLRequest
            do {
                urlRequest = try await routing.service.urlRequest(for: source, rendition: rendition)
            } catch is CancellationError {
                return .unanswered(.failure(.cancelled))
            } catch {
                // The app's signer or URL failed: its error, not the original in silence; the
                // loads of the cool-off fail with it without asking again.
                let reason = "the image service's URL for \(source.absoluteString) could not be made: \(ErrorCause.reason(error))"
                let failure = ImageError.dataLoadingFailed(reason: reason, cause: ErrorCause(error))
                routing.health.signerFailed(failure)
                return .unanswered(.failure(failure))
            }
            if let refusedURL, refusedURL == urlRequest.url {
                return .failed(.httpStatus(code: 403, url: refusedURL), serviceIsDown: true)  // signing again changed nothing
            }
            switch await stream(urlRequest, conditions: conditions, answerWithin: (routing.health.clock, routing.timeout)) {
            case .fetched(var fetched):
                fetched.rendition = rendition
                return .answered(.fetched(fetched))
            case .notModified(let answer):
                return .answered(.notModified(answer))
            case .failure(.cancelled):
                return .unanswered(.failure(.cancelled))
            case .failure(let error):
                switch ServiceRouting.verdict(after: error) {
                case .sourceError:
                    return .answered(.failure(error))
                case .refusedCredentials where refusedURL == nil:
                    refusedURL = urlRequest.url ?? source
                    routing.service.didRefuseCredentials()
                case .refusedCredentials, .serviceFailed:
                    return .failed(error, serviceIsDown: true)
                case .cannotTakeSource:
                    return .failed(error, serviceIsDown: false)
                }
            }
        }
    }

    /// The original of `source`, loaded because the service failed with `failure` (or is cooling
    /// off after it): from the disk cache while fresh there, else loaded (conditionally on what
    /// is stored: a 304 hands on the stored bytes); a request that ignores cached data loads it.
    /// The result says it is a fallback.
    private func loadOriginal(of source: URL, insteadOfServiceAfter failure: ImageError) async -> Loaded {
        let stored =
            request.cachePolicy == .reloadIgnoringLocalCacheData ? nil : graph.caches.entry(forKey: keys.data.original.string)
        let validity = stored.map(graph.caches.validity(of:))
        if let stored, validity?.isFresh == true {
            return .fetched(FetchedData(data: stored.data, origin: .diskCache, httpMetadata: stored.metadata, serviceFallback: failure))
        }
        switch await stream(URLRequest(url: source), conditions: stored?.metadata?.conditionalHeaders ?? [:]) {
        case .fetched(var fetched):
            fetched.serviceFallback = failure
            return .fetched(fetched)
        case .notModified(let answer):
            guard let renewed = stored?.renewed(by: answer) else { return .failure(.httpStatus(code: 304, url: source)) }
            return .fetched(FetchedData(data: renewed.data, origin: .revalidated, httpMetadata: renewed.metadata, serviceFallback: failure))
        case .failure(let error):
            guard let stored, let validity, Self.servesStale(validity, after: error) else { return .failure(error) }
            return .fetched(
                FetchedData(
                    data: stored.data, origin: .staleAfterError, httpMetadata: stored.metadata, serviceFallback: failure,
                    staleBecause: error))
        }
    }

    /// ``stream(_:conditions:)`` given up when its response has not begun by `timeout` on
    /// `clock`: an ``ImageError/network(reason:url:cause:)`` saying so.
    private func stream(
        _ request: URLRequest, conditions: [String: String], answerWithin limit: (clock: LoadClock, timeout: Duration)
    ) async -> Loaded {
        let answered = LockedState(false)
        let deadline = limit.clock.now() + limit.timeout
        return await withTaskGroup(of: Loaded?.self) { group in
            group.addTask {
                await self.stream(request, conditions: conditions, onResponse: { answered.withLock { $0 = true } })
            }
            group.addTask {
                do {
                    try await limit.clock.sleep(deadline)
                } catch {
                    return nil
                }
                guard !answered.withLock({ $0 }) else { return nil }
                return .failure(.network(reason: "the image service did not answer within \(limit.timeout)", url: request.url))
            }
            var result = Loaded.failure(.cancelled)
            for await next in group {
                guard let next else { continue }
                result = next
                group.cancelAll()
                break
            }
            return result
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
    private func stream(_ request: URLRequest, conditions: [String: String], onResponse: (@Sendable () -> Void)? = nil) async -> Loaded {
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
