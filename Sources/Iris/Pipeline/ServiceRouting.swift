import Foundation

/// Which requests a pipeline fetches through its image service
/// (``ImagePipeline/Configuration/imageService``), and as which rendition: an `http(s)` URL the
/// service renders, requested at a target size, in a format the pipeline's decoders read.
struct ServiceRouting: Sendable {
    /// A request routed through the service.
    struct Route: Sendable {
        /// The original's URL.
        let source: URL
        /// What the service is asked for.
        let rendition: ImageRendition
        /// What sets the rendition's data key apart from the original's (the service and the box).
        let keyPrefix: String
    }

    let service: any ImageService
    let decoders: ImageDecoderRegistry

    /// The route of `request` decoded at `target`; `nil` when it fetches its original (a file, a
    /// `.data` closure, a `URLRequest` with its own headers, a request at full size, a source the
    /// service does not render).
    func route(_ request: ImageRequest, target: DecodeTarget?) -> Route? {
        guard let target, case .url(let url) = request.source, service.renders(url) else { return nil }
        var rendition = service.rendition(for: target)
        if let format = rendition.format, decoders.decoder(for: format) == nil { rendition.format = nil }
        return Route(source: url, rendition: rendition, keyPrefix: "service(\(service.cacheIdentity)) \(rendition)")
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

/// Loads that fell back from the image service to the original, by the rendition's data key,
/// kept until the decode of their bytes takes them into ``LoadedImage/serviceFallback`` (at most
/// a few hundred: an entry nobody takes, a `data(for:)` load's, is dropped with the oldest).
final class ServiceFallbacks: Sendable {
    private static let capacity = 256
    private let entries = LockedState<[(key: DataKey, error: ImageError)]>([])

    /// Records that the load of `key` fell back after `error`.
    func record(_ error: ImageError, for key: DataKey) {
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, error))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
    }

    /// The fallback recorded for `key`, removed.
    func take(_ key: DataKey) -> ImageError? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            return entries.remove(at: index).error
        }
    }
}
