import Foundation
import Hummingbird
import IrisServerCore

/// The image routes (`GET` and `HEAD` of every path no other route takes): an imgproxy URL
/// answered by a chain of middleware, in this order, then the handler.
///
/// 1. ``HeadMiddleware``: a `HEAD` gets the `GET`'s status and headers, no body.
/// 2. ``MetricsMiddleware``: every answer counted once (``ServerMetrics``).
/// 3. ``URLMiddleware``: parse and verify the URL (a refusal answers here).
/// 4. ``ResultCacheMiddleware``: a result cache hit, or its 304, answers here, unadmitted.
/// 5. ``AdmissionMiddleware``: admitted into the bounded work queue (or a 429), the work
///    under the processing timeout.
/// 6. The handler: fetch, plan, render and store (``ImageRenderer``), and the response.
struct ImageRoutes: Sendable {
    /// The renderer behind every step.
    let renderer: ImageRenderer
    /// Turns answers into responses.
    let answers: ImageAnswers

    /// The routes over `renderer`.
    init(renderer: ImageRenderer) {
        self.renderer = renderer
        answers = ImageAnswers(
            responses: ImageResponses(
                cacheTTL: renderer.configuration.cacheTTL, retryAfterSeconds: renderer.configuration.retryAfterSeconds,
                clientHints: renderer.configuration.clientHints),
            metrics: renderer.metrics)
    }

    /// Adds `GET **` and `HEAD **`, behind the middleware, to `router`.
    func add(to router: Router<BasicRequestContext>) {
        router.group(context: ImageRequestContext.self)
            .add(middleware: HeadMiddleware())
            .add(middleware: ThrownErrorMetricsMiddleware(metrics: renderer.metrics))
            .add(middleware: URLMiddleware(renderer: renderer, answers: answers))
            .add(middleware: ResultCacheMiddleware(renderer: renderer, answers: answers))
            .add(
                middleware: AdmissionMiddleware(
                    gate: renderer.gate, limit: renderer.configuration.processingTimeout, answers: answers)
            )
            .get("**", use: handle)
            .head("**", use: handle)
    }

    /// The handler: the admitted work (fetch, plan, render, store) under the admission's
    /// timeout, answered.
    @Sendable func handle(_ request: Request, context: ImageRequestContext) async -> Response {
        guard let serve = context.request, let admission = context.admission else {
            return answers.respond(.failure(ServeError(status: 500, "the image route is missing a step")))
        }
        let accept = request.headers[.accept], ifNoneMatch = request.headers[.ifNoneMatch]
        let (renderer, lookup, now) = (renderer, context.lookup, context.arrived)
        let result: ServeResult
        do {
            result = try await admission.run {
                try await renderer.work(serve, accept: accept, ifNoneMatch: ifNoneMatch, lookup: lookup, now: now)
            }
        } catch let error as ServeError {
            result = .failure(error)
        } catch {
            result = .failure(ServeError(status: 500, "the image could not be made"))
        }
        return answers.respond(result)
    }
}

/// An image request's context, filled in by the middleware in order: when it arrived, the
/// request parsed and verified, what the result cache found, the admission its work runs
/// under.
struct ImageRequestContext: ChildRequestContext {
    /// Hummingbird's part.
    var coreContext: CoreRequestContextStorage
    /// When the request arrived (the time `expires` and the result cache are checked at).
    let arrived = Date()
    /// The request, parsed and verified (by ``URLMiddleware``).
    var request: ServeRequest?
    /// What the result cache found (by ``ResultCacheMiddleware``).
    var lookup = ResultLookup()
    /// The admission the work runs under (by ``AdmissionMiddleware``).
    var admission: Admission?

    /// The context of a request routed to the image routes.
    init(context: BasicRequestContext) { coreContext = context.coreContext }
}

/// Turns the result a step answers with into its response, counting it in the metrics (its
/// status and format, a render's stages, a refusal's reason) as it goes out: a step that
/// answers returns at once, so every image request is counted here once.
struct ImageAnswers: Sendable {
    /// Builds the responses.
    let responses: ImageResponses
    /// Where the answers are counted.
    let metrics: ServerMetrics

    /// The response of `result`, counted.
    func respond(_ result: ServeResult) -> Response {
        metrics.record(result)
        return responses.response(for: result)
    }
}

/// `HEAD`: the status and headers the `GET` would have, without the body (a refusal's too).
struct HeadMiddleware: RouterMiddleware {
    /// Strips the body of a `HEAD`'s response.
    func handle(
        _ request: Request, context: ImageRequestContext, next: (Request, ImageRequestContext) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}

/// Counts in ``ServerMetrics`` a request no step answered: an error thrown past them (the
/// answers the steps give are counted by ``ImageAnswers``).
struct ThrownErrorMetricsMiddleware: RouterMiddleware {
    /// Where the errors are counted.
    let metrics: ServerMetrics

    /// Counts an error thrown by the steps after this one, and throws it on.
    func handle(
        _ request: Request, context: ImageRequestContext, next: (Request, ImageRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            metrics.record(.failure(ServeError(status: (error as? any HTTPResponseError)?.status.code ?? 500, "")))
            throw error
        }
    }
}

/// Parses and verifies the imgproxy URL (signature, options, source, expiry), with the client
/// hints as the defaults of the options when they are on; a refusal answers here.
struct URLMiddleware: RouterMiddleware {
    /// Holds the URL reader and the configuration.
    let renderer: ImageRenderer
    /// Answers (and counts) a refusal or a hit.
    let answers: ImageAnswers

    /// Puts the parsed request in the context.
    func handle(
        _ request: Request, context: ImageRequestContext, next: (Request, ImageRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let hints = ClientHints(
            dpr: request.headers[.secCHDPR] ?? request.headers[.dpr],
            width: request.headers[.secCHWidth] ?? request.headers[.width])
        do throws(ServeError) {
            context.request = try renderer.urls.parse(
                request.uri.path, now: context.arrived,
                defaults: renderer.configuration.clientHints ? hints.defaults : ProcessingOptions())
        } catch {
            return answers.respond(.failure(error))
        }
        return try await next(request, context)
    }
}

/// Looks the result up in the result cache (when there is one): a hit, or a 304 when
/// `If-None-Match` names its ETag, answers here without admission.
struct ResultCacheMiddleware: RouterMiddleware {
    /// Holds the result cache.
    let renderer: ImageRenderer
    /// Answers (and counts) a refusal or a hit.
    let answers: ImageAnswers

    /// Answers a hit, or puts the lookup (the key a new result is stored under) in the context.
    func handle(
        _ request: Request, context: ImageRequestContext, next: (Request, ImageRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let serve = context.request else { return try await next(request, context) }
        var context = context
        context.lookup = await renderer.lookUpResult(
            of: serve, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch], now: context.arrived)
        if let hit = context.lookup.hit { return answers.respond(hit) }
        return try await next(request, context)
    }
}
