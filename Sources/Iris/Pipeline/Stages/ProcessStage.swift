import Foundation

/// The last stage: runs the request's processors in order on the decoded image, then stores the
/// result in the memory cache.
///
/// Shared by requests with the same image key and cache policy. Previews from the decode stage
/// are processed on the preview decode's thread (previews are few and small) and passed on.
final class ProcessStage: PipelineStage<StageImage, LoadedImage>, @unchecked Sendable {
    override func start() {
        follow(
            graph.decodeImage,
            partial: { [self] preview in
                if case .success(let processed) = Self.process(preview, with: request.processors) { publishPartial(processed) }
            },
            success: { [self] decoded in process(decoded) })
    }

    private func process(_ decoded: StageImage) {
        let processors = request.processors
        guard !processors.isEmpty else { return finish(.success(store(decoded))) }
        enqueue(in: graph.processQueue) { [self] in
            guard !Task.isCancelled else { return }
            finish(
                Self.process(decoded.image, with: processors).map { processed in
                    var processed = processed
                    processed.httpMetadata = decoded.image.httpMetadata  // what is known of the bytes stays
                    var result = decoded
                    result.image = processed
                    return store(result)
                })
        }
    }

    /// Puts the result in the memory cache (``PipelineCaches/storeResult(_:of:keys:)``); an image
    /// of stale data used without asking (shown while it is revalidated) then has its data
    /// revalidated in the background: after the store, so that a revalidation finding new bytes removes this image too.
    private func store(_ result: StageImage) -> StageImage {
        graph.caches.storeResult(result, of: request, keys: keys)
        if request.cachePolicy == .useProtocolCachePolicy, result.isUnrevalidatedStaleData {
            graph.revalidateInBackground(request, keys: keys)
        }
        return result
    }

    /// Runs `processors` in order, checking for cancellation between them; an animation gets
    /// them on every frame.
    static func process(_ image: LoadedImage, with processors: [any ImageProcessing]) -> Result<LoadedImage, ImageError> {
        image.applying(processors)
    }
}
