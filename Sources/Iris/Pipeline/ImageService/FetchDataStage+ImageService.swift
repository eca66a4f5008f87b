import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The fetch stage's way through the image service (``ImagePipeline/Configuration/imageService``):
// ask it for the rendition the request's data key names, within its timeout, signing again once
// after a 401 or 403; when it fails on its own (or cools off after a failure), load the original
// instead and say so (``FetchedData/serviceFallback``). `FetchDataStage+Source.swift` calls
// ``FetchDataStage/loadRendition(_:of:through:conditions:validity:)`` for a request routed here
// (`ServiceRouting.swift`).

extension FetchDataStage {
    /// The service's rendition; the original when the service fails on its own or is cooling off
    /// after a failure (unless stored data with `validity` may stand in for the rendition).
    func loadRendition(
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
}
