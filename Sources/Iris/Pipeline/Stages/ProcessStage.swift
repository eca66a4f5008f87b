import Foundation

/// The last stage: runs the request's processors in order on the decoded image, then stores the
/// result in the memory cache.
///
/// Shared by requests with the same image key and cache policy. Previews from the decode stage
/// are processed on the preview decode's thread (previews are few and small) and passed on.
final class ProcessStage: PipelineStage<StageImage, LoadedImage>, @unchecked Sendable {
    /// Requests with equal keys share one processing (and one memory-cache write).
    struct Key: Hashable, Sendable {
        var image: ImageCacheKey
        var cachePolicy: ImageRequest.CachePolicy
    }

    let keys: RequestKeys

    init(pipeline: ImagePipeline, request: ImageRequest, keys: RequestKeys) {
        self.keys = keys
        super.init(pipeline: pipeline, request: request)
    }

    override func start() {
        subscribe { priority in
            pipeline.decodeImage(request, keys: keys, priority: priority) { [self] event in
                switch event {
                case .progress(let progress):
                    publish(progress)
                case .partial(let preview):
                    if case .success(let processed) = Self.process(preview, with: request.processors) {
                        publishPartial(processed)
                    }
                case .finished(.failure(let error)):
                    finish(.failure(error))
                case .finished(.success(let decoded)):
                    process(decoded)
                }
            }
        }
    }

    private func process(_ decoded: StageImage) {
        let processors = request.processors
        guard !processors.isEmpty else { return finish(.success(store(decoded))) }
        enqueue(in: pipeline.processQueue) { [self] in
            guard !Task.isCancelled else { return }
            finish(Self.process(decoded.image, with: processors).map {
                store(StageImage(image: $0, originalData: decoded.originalData))
            })
        }
    }

    /// Puts the result in the memory cache, with the original bytes when the request that
    /// started this stage keeps them.
    private func store(_ result: StageImage) -> StageImage {
        if let memoryCache = pipeline.configuration.memoryCache {
            var image = result.image
            if request.options.keepsData { image.data = result.originalData }
            memoryCache.store(image, for: keys.image)
        }
        return result
    }

    /// Runs `processors` in order, checking for cancellation between them.
    static func process(_ image: LoadedImage, with processors: [any ImageProcessing]) -> Result<LoadedImage, ImageError> {
        var image = image
        for processor in processors {
            if Task.isCancelled { return .failure(.cancelled) }
            do {
                image = try processor.process(image)
            } catch {
                return .failure(error)
            }
        }
        return .success(image)
    }
}

extension ImagePipeline {
    /// Subscribes to the process stage for `request`: the image as the caller gets it.
    func processImage(_ request: ImageRequest, keys: RequestKeys, priority: ImageRequest.Priority,
                      observer: @escaping ProcessStage.Observer) -> StageSubscription<StageImage, LoadedImage> {
        let key = ProcessStage.Key(image: keys.image, cachePolicy: request.cachePolicy)
        return processStages.subscribe(to: key, priority: priority, observer: observer) {
            ProcessStage(pipeline: self, request: request, keys: keys)
        }
    }
}
