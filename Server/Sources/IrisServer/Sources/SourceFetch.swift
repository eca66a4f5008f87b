import Foundation
import Iris
import IrisServerCore

/// A source's bytes as fetched, with the pipeline request that fetched them (to drop them from
/// the disk cache if they turn out not to be a usable image).
struct FetchedSource: Sendable {
    /// The bytes.
    var data: Data
    /// The request they were fetched with.
    var request: ImageRequest
    /// Timings so far (fetch).
    var timings: RenderTimings
}

extension ImageRenderer {
    /// Fetches `request`'s source through the pipeline's loader and disk cache (one download
    /// for every request of a source in flight), counting a remote source's outcome.
    func fetch(_ request: ServeRequest) async throws(ServeError) -> FetchedSource {
        let clock = ContinuousClock()
        let started = clock.now
        let fetchRequest = ImageRequest(source: try imageSource(for: request.source))
        var remote: String?
        if case .remote(let url) = request.source { remote = url.absoluteString }
        let role = remote.map { sources.begin($0) }
        let data: Data
        do {
            data = try await pipeline.data(for: fetchRequest)
        } catch {
            if let remote { _ = sources.end(remote) }
            throw ServeError(error)
        }
        if let remote, let role {
            let downloaded = sources.end(remote)
            metrics.source(role == .joined ? .coalesced : downloaded ? .miss : .hit, bytes: data.count)
        }
        var timings = RenderTimings()
        timings.fetch = started.duration(to: clock.now)
        return FetchedSource(data: data, request: fetchRequest, timings: timings)
    }

    /// The pipeline's source for a checked reference.
    func imageSource(for source: SourceReference) throws(ServeError) -> ImageRequest.Source {
        switch source {
        case .remote(let url):
            try configuration.sourcePolicy.checkAllowed(url)
            return .url(url)
        case .local(let path):
            return .file(try configuration.sourcePolicy.localFile(path))
        }
    }

    /// Drops a source that turned out not to be a usable image from the disk cache.
    func forget(_ fetched: FetchedSource) {
        pipeline.configuration.dataCache?.remove(for: pipeline.dataKey(for: fetched.request))
    }
}
