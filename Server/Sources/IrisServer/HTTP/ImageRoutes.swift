import Foundation
import Hummingbird
import IrisServerCore

/// The image routes (`GET` and `HEAD` of every path no other route takes): an imgproxy URL
/// answered by its steps in order (``answer(_:)``), each returning the answer or going on; the
/// answer is then counted from the value it is (``ServerMetrics``) and turned into a response
/// (``ImageResponses``), each once, here. ``HeadMiddleware`` drops a `HEAD`'s body.
struct ImageRoutes: Sendable {
    /// The URL reader, the result cache, the work queue and the work.
    let renderer: ImageRenderer
    /// Turns answers into responses.
    let responses: ImageResponses

    /// The routes over `renderer`.
    init(renderer: ImageRenderer) {
        self.renderer = renderer
        responses = ImageResponses(
            cacheTTL: renderer.configuration.cacheTTL, retryAfterSeconds: renderer.configuration.retryAfterSeconds,
            clientHints: renderer.configuration.clientHints)
    }

    /// Adds `GET **` and `HEAD **`, behind ``HeadMiddleware``, to `router`.
    func add(to router: Router<BasicRequestContext>) {
        router.group()
            .add(middleware: HeadMiddleware())
            .get("**", use: respond)
            .head("**", use: respond)
    }

    /// The response to an image request: its answer, counted, as HTTP.
    @Sendable func respond(to request: Request, context: BasicRequestContext) async -> Response {
        let answer = await answer(request)
        renderer.metrics.record(answer)
        return responses.response(for: answer)
    }

    /// The steps of an image request, in order; the first that answers ends it.
    ///
    /// 1. Parse and verify the URL (signature, options, source, expiry), with the client hints
    ///    as the defaults of the options when they are on; a refusal answers.
    /// 2. Look the result up in the result cache (when there is one): a hit, or a 304 when
    ///    `If-None-Match` names its ETag, answers, unadmitted.
    /// 3. Admission into the bounded work queue (``AdmissionGate``), or a 429.
    /// 4. The work (fetch, plan, render, store: ``ImageRenderer``) under the processing timeout
    ///    (``Admission``).
    func answer(_ request: Request) async -> ServeResult {
        let arrived = Date()
        let accept = request.headers[.accept], ifNoneMatch = request.headers[.ifNoneMatch]
        let serve: ServeRequest
        do throws(ServeError) {
            serve = try read(request, now: arrived)
        } catch {
            return .failure(error)
        }
        let lookup = await renderer.lookUpResult(of: serve, accept: accept, ifNoneMatch: ifNoneMatch, now: arrived)
        if let hit = lookup.hit { return hit }
        do throws(ServeError) {
            try renderer.gate.admit()
        } catch {
            return .failure(error)
        }
        let admission = Admission(gate: renderer.gate, limit: renderer.configuration.processingTimeout)
        defer { admission.handlerReturned() }
        let renderer = renderer
        do {
            return try await admission.run {
                try await renderer.work(serve, accept: accept, ifNoneMatch: ifNoneMatch, lookup: lookup, now: arrived)
            }
        } catch let error as ServeError {
            return .failure(error)
        } catch {
            return .failure(ServeError(status: 500, "the image could not be made"))
        }
    }

    /// The request's imgproxy URL, parsed and verified at `now`, the client hints (when they
    /// are on) the defaults of its options.
    private func read(_ request: Request, now: Date) throws(ServeError) -> ServeRequest {
        let hints = ClientHints(
            dpr: request.headers[.secCHDPR] ?? request.headers[.dpr],
            width: request.headers[.secCHWidth] ?? request.headers[.width])
        return try renderer.urls.parse(
            request.uri.path, now: now, defaults: renderer.configuration.clientHints ? hints.defaults : ProcessingOptions())
    }
}

/// `HEAD`: the status and headers the `GET` would have, without the body (a refusal's too).
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Strips the body of a `HEAD`'s response.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
