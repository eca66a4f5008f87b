import Foundation

/// Which requests a pipeline fetches through its image service
/// (``ImagePipeline/Configuration/imageService``), and as which rendition: an `http(s)` URL the
/// service renders, requested at a target size, in a format the pipeline's decoders read. What it
/// decides is part of the request's data key (``RenditionKey``), derived once with the other
/// keys: the stages read the rendition from the key.
struct ServiceRouting: Sendable {
    let service: any ImageService
    /// The service's ``ImageService/cacheIdentity``, read once.
    let identity: String
    /// The formats the pipeline's decoders read.
    private let decodableFormats: Set<ImageFormat>
    /// How long the service has to begin answering.
    let timeout: Duration
    /// Whether the service is asked now (its cool-off after a failure).
    let health: ImageServiceHealth

    init(service: any ImageService, decoders: ImageDecoderRegistry, failover: ImageServiceFailover) {
        self.service = service
        identity = service.cacheIdentity
        decodableFormats = decoders.decoders.reduce(into: []) { $0.formUnion($1.formats) }
        timeout = failover.timeout
        health = ImageServiceHealth(clock: LoadClock(failover.clock), coolOff: failover.coolOff)
    }

    /// The rendition of `request` decoded at `target`; `nil` when it fetches its original (a file,
    /// a `.data` closure, a `URLRequest` with its own headers, a request at full size, a source
    /// the service does not render, a video, an animation the service would flatten).
    func rendition(of request: ImageRequest, at target: DecodeTarget?) -> RenditionKey? {
        guard let target, case .url(let url) = request.source, service.renders(url),
            Self.sendsToService(url, keepsAnimations: service.keepsAnimations)
        else { return nil }
        var rendition = service.rendition(for: target)
        if let format = rendition.format, !decodableFormats.contains(format) { rendition.format = nil }
        return RenditionKey(rendition: rendition, service: identity)
    }

    /// Path extensions of videos: their clip plays from the original's bytes, never a service's
    /// still.
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "webm", "mkv", "3gp"]
    /// Path extensions of formats that are usually animated.
    static let animationExtensions: Set<String> = ["gif", "apng"]

    /// Whether `source` goes to the service, by its path's extension: not a video; an animation
    /// only to a service that keeps it moving.
    static func sendsToService(_ source: URL, keepsAnimations: Bool) -> Bool {
        let pathExtension = source.pathExtension.lowercased()
        if videoExtensions.contains(pathExtension) { return false }
        return keepsAnimations || !animationExtensions.contains(pathExtension)
    }

    /// What a failed request to the service says.
    enum FailureVerdict: Equatable {
        /// The source is bad (a 404, another 4xx): the load's error, the original not tried.
        case sourceError
        /// The service refused the credentials (401, 403): sign again once, then fall back.
        case refusedCredentials
        /// The service cannot take this source (415, 422: a video, a type or size it refuses):
        /// the original, the service still up.
        case cannotTakeSource
        /// The service failed on its own (a 5xx, 408, 429, no answer in time, a refused or cut
        /// connection, an answer that is not an image): the original, and the service cools off.
        case serviceFailed
    }

    /// What `error` from the service says.
    static func verdict(after error: ImageError) -> FailureVerdict {
        switch error {
        case .httpStatus(401, _), .httpStatus(403, _): .refusedCredentials
        case .httpStatus(415, _), .httpStatus(422, _): .cannotTakeSource
        case .httpStatus(let code, _): code >= 500 || code == 408 || code == 429 ? .serviceFailed : .sourceError
        case .network, .dataLoadingFailed, .notAnImage: .serviceFailed
        default: .sourceError
        }
    }
}
