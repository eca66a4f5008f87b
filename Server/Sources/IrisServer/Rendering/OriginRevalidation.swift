import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import IrisServerCore

extension ImageRenderer {
    /// imgproxy's ETag mode (`IMGPROXY_USE_ETAG`): a client's `If-None-Match` that names no
    /// result of this service (the source's own ETag, which imgproxy gives out) is sent on to
    /// the source's origin, and when the origin answers 304 the service does too, with the
    /// origin's ETag, fetching and rendering nothing. `nil`, and the request goes on as any
    /// other: a local source, no such validator, an origin that answered otherwise or failed.
    func originNotModified(_ request: ServeRequest, ifNoneMatch: String) async -> String? {
        guard case .remote(let url) = request.source, ETag.namesAnotherValidator(ifNoneMatch) else { return nil }
        var conditional = URLRequest(url: url)
        conditional.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match")
        do {
            // The first event is the response: a 304, or a body not wanted here (leaving the
            // loop cancels the download).
            for try await event in sourceLoader.loadData(for: conditional, byteLimit: configuration.maxSourceBytes) {
                guard case .response(let response) = event, response.statusCode == 304 else { return nil }
                return response.value(forHTTPHeaderField: "ETag") ?? ifNoneMatch
            }
        } catch {
            return nil
        }
        return nil
    }
}
