import Foundation
import IrisServerCore

/// The result cache's step: what a lookup found, and the key a new result is stored under.
struct ResultLookup: Sendable {
    /// The key of the request's result; `nil` without a result cache.
    var key: String?
    /// How long the lookup took.
    var duration: Duration = .zero
    /// The answer when the cache had the result (the image, or a 304).
    var hit: ServeResult?
}

extension ImageRenderer {
    /// Looks `request`'s result up in the result cache (when there is one): a hit is the
    /// answer, a 304 when `ifNoneMatch` names its ETag.
    func lookUpResult(of request: ServeRequest, accept: String?, ifNoneMatch: String?, now: Date) async -> ResultLookup {
        guard let resultCache else { return ResultLookup() }
        let clock = ContinuousClock()
        let started = clock.now
        let key = ResultCache.key(
            signedPath: request.signedPath, formats: formatsKey(request, accept: accept), dpr: request.options.dpr,
            width: request.options.width)
        var lookup = ResultLookup(key: key)
        let entry = await resultCache.entry(for: key, now: now)
        lookup.duration = started.duration(to: clock.now)
        metrics.resultCache(hit: entry != nil)
        guard let entry else { return lookup }
        var timings = RenderTimings()
        timings.resultCacheHit = true
        timings.resultCacheLookup = lookup.duration
        if let ifNoneMatch, ETag.matches(ifNoneMatch, etag: entry.etag) {
            lookup.hit = .notModified(
                PreparedRender(
                    request: request, data: Data(), format: entry.format, negotiated: entry.negotiated,
                    isAnimated: false, etag: entry.etag, timings: timings))
        } else {
            lookup.hit = .image(
                RenderedImage(
                    request: request, data: entry.data, format: entry.format, negotiated: entry.negotiated,
                    etag: entry.etag, timings: timings))
        }
        return lookup
    }

    /// Stores a new result under the lookup's key (when there is a result cache), noting the
    /// miss in its timings.
    func store(_ image: inout RenderedImage, lookup: ResultLookup, now: Date) {
        guard let resultCache, let key = lookup.key else { return }
        image.timings.resultCacheHit = false
        image.timings.resultCacheLookup = lookup.duration
        resultCache.store(
            ResultCache.Entry(
                data: image.data, format: image.format, negotiated: image.negotiated,
                etag: image.etag, created: Int(now.timeIntervalSince1970)), for: key)
    }

    /// The part of a result cache key that stands for the format: the one named, or for a
    /// negotiated one, what `accept` leads to for an opaque, a transparent and an animated source.
    func formatsKey(_ request: ServeRequest, accept: String?) -> String {
        if let requested = request.requestedFormat { return requested.rawValue }
        var choices: [String] = []
        for source in [nil] + FormatNegotiation.preferred {
            for (alpha, animated) in [(false, false), (true, false), (false, true), (true, true)] {
                choices.append(negotiation.choose(accept: accept, hasAlpha: alpha, isAnimated: animated, source: source).rawValue)
            }
        }
        return "accept " + choices.joined(separator: ",")
    }
}
