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

    init(service: any ImageService, decoders: ImageDecoderRegistry) {
        self.service = service
        identity = service.cacheIdentity
        decodableFormats = decoders.decoders.reduce(into: []) { $0.formUnion($1.formats) }
    }

    /// The rendition of `request` decoded at `target`; `nil` when it fetches its original (a file,
    /// a `.data` closure, a `URLRequest` with its own headers, a request at full size, a source
    /// the service does not render).
    func rendition(of request: ImageRequest, at target: DecodeTarget?) -> RenditionKey? {
        guard let target, case .url(let url) = request.source, service.renders(url) else { return nil }
        var rendition = service.rendition(for: target)
        if let format = rendition.format, !decodableFormats.contains(format) { rendition.format = nil }
        return RenditionKey(rendition: rendition, service: identity)
    }

    /// Whether a failure of the service is the service's own (a 5xx, a timeout, a refused or cut
    /// connection, an answer that is not an image), so the original is loaded instead; a 4xx
    /// says the source is bad, and is the load's error.
    static func fallsBack(after error: ImageError) -> Bool {
        switch error {
        case .httpStatus(let code, _): code >= 500
        case .network, .dataLoadingFailed, .notAnImage: true
        default: false
        }
    }
}
