import Foundation

// The three shared stages. Each one subscribes to the stage it depends on, forwards progress,
// runs its own step in its queue and finishes its shared operation. Priority changes flow
// upstream through `onPriorityChange`; cancellation through `onCancel`.

extension ImagePipeline {
    /// Processing stage (keyed by the full image key): processors in order, then the memory cache.
    func subscribeProcessed(_ request: ImageRequest, key: ImageCacheKey, priority: ImageRequest.Priority,
                            observer: @escaping SharedOperation<LoadedImage>.Observer) -> StageSubscription<LoadedImage> {
        let stageKey = ImageStageKey(imageKey: key, cachePolicy: request.cachePolicy, keepsData: request.options.keepsData)
        return processStage.subscribe(to: stageKey, priority: priority, observer: observer) { operation in
            let upstream = subscribeDecoded(request, key: key, priority: operation.priority) { [self] event in
                switch event {
                case .progress(let progress):
                    operation.publish(progress)
                case .preview(let preview):
                    // Processed on the preview decode's thread: previews are few and small.
                    if case .success(let processed) = Self.process(preview, with: request.processors) {
                        operation.publishInterim(.preview(processed))
                    }
                case .partialData:
                    break
                case .finished(.failure(let error)):
                    operation.finish(.failure(error))
                case .finished(.success(let decoded)):
                    if request.processors.isEmpty {
                        operation.finish(.success(store(decoded, original: decoded.data, for: request, key: key)))
                        return
                    }
                    let job = processQueue.enqueue(priority: operation.priority) { [self] in
                        guard !Task.isCancelled else { return }
                        let result = Self.process(decoded, with: request.processors)
                            .map { store($0, original: decoded.data, for: request, key: key) }
                        operation.finish(result)
                    }
                    operation.onCancel { job.cancel() }
                    operation.onPriorityChange { job.setPriority($0) }
                }
            }
            operation.onCancel { upstream.cancel() }
            operation.onPriorityChange { upstream.setPriority($0) }
        }
    }

    /// Decode stage (keyed by source + target + orientation): decodes at the target size.
    /// The result carries the original data in ``LoadedImage/data``.
    func subscribeDecoded(_ request: ImageRequest, key: ImageCacheKey, priority: ImageRequest.Priority,
                          observer: @escaping SharedOperation<LoadedImage>.Observer) -> StageSubscription<LoadedImage> {
        let stageKey = ImageStageKey(imageKey: key.decodeKey, cachePolicy: request.cachePolicy, keepsData: false)
        return decodeStage.subscribe(to: stageKey, priority: priority, observer: observer) { operation in
            if case .file(let url) = request.source, request.cachePolicy != .returnCacheDataDontLoad {
                return decodeFile(at: url, for: request, into: operation)
            }
            let previews = PreviewDecoder()
            let upstream = subscribeData(request, priority: operation.priority) { [self] event in
                switch event {
                case .progress(let progress):
                    operation.publish(progress)
                case .partialData(let data):
                    previews.offer(data, for: request, to: operation, in: self)
                case .preview:
                    break
                case .finished(.failure(let error)):
                    operation.finish(.failure(error))
                case .finished(.success(let data)):
                    let options = decodeOptions(for: request)
                    let decoders = configuration.decoders
                    let job = decodeQueue.enqueue(priority: operation.priority) {
                        guard !Task.isCancelled else { return }
                        let result = Result { () throws(ImageError) -> LoadedImage in
                            var image = try decoders.decode(data, options: options)
                            image.data = data
                            return image
                        }
                        operation.finish(result)
                    }
                    operation.onCancel { job.cancel() }
                    operation.onPriorityChange { job.setPriority($0) }
                }
            }
            operation.onCancel { upstream.cancel() }
            operation.onPriorityChange { upstream.setPriority($0) }
        }
    }

    /// Data stage (keyed by data key and cache policy): disk cache, then the source.
    func subscribeData(_ request: ImageRequest, priority: ImageRequest.Priority,
                       observer: @escaping SharedOperation<Data>.Observer) -> StageSubscription<Data> {
        let dataKey = dataKey(for: request)
        let stageKey = DataStageKey(dataKey: dataKey, cachePolicy: request.cachePolicy)
        return dataStage.subscribe(to: stageKey, priority: priority, observer: observer) { operation in
            let policy = request.cachePolicy
            guard request.source.isRemote, let dataCache = configuration.dataCache, policy != .reloadIgnoringCache else {
                if policy == .returnCacheDataDontLoad {
                    operation.finish(.failure(.notCached))
                } else {
                    enqueueLoad(request, dataKey: dataKey, into: operation)
                }
                return
            }
            // The disk cache does blocking I/O: read it off the caller's executor.
            let read = Task.detached(priority: operation.priority.taskPriority) { [self] in
                if let data = dataCache.data(for: dataKey) {
                    operation.finish(.success(data))
                } else if policy == .returnCacheDataDontLoad {
                    operation.finish(.failure(.notCached))
                } else if !Task.isCancelled {
                    enqueueLoad(request, dataKey: dataKey, into: operation)
                }
            }
            operation.onCancel { read.cancel() }
        }
    }

    /// Queues the load of `request`'s source for the data stage's `operation`.
    private func enqueueLoad(_ request: ImageRequest, dataKey: String, into operation: SharedOperation<Data>) {
        let job = dataQueue.enqueue(priority: operation.priority) { [self] in
            guard !Task.isCancelled else { return }
            var partial: (@Sendable (Data) -> Void)?
            if configuration.isProgressiveDecodingEnabled {
                partial = { (data: Data) in operation.publishInterim(StageEvent<Data>.partialData(data)) }
            }
            let progress: @Sendable (ImageTask.Progress) -> Void = { operation.publish($0) }
            let result = await loadData(for: request.source, progress: progress, partial: partial)
            if case .success(let data) = result, request.source.isRemote {
                configuration.dataCache?.store(data, for: dataKey)
            }
            operation.finish(result)
        }
        operation.onCancel { job.cancel() }
        operation.onPriorityChange { job.setPriority($0) }
    }

    /// Decodes a file source straight from the file, mapped, giving back the pages the decoder
    /// has read (``ImageDecoderRegistry/decode(contentsOf:options:)``): a large file is never
    /// resident whole. The original data handed on is the file mapped again (no read).
    private func decodeFile(at url: URL, for request: ImageRequest, into operation: SharedOperation<LoadedImage>) {
        let options = decodeOptions(for: request)
        let decoders = configuration.decoders
        let job = decodeQueue.enqueue(priority: operation.priority) {
            guard !Task.isCancelled else { return }
            let result = Result { () throws(ImageError) -> LoadedImage in
                var image = try decoders.decode(contentsOf: url, options: options)
                image.data = try? Data(contentsOf: url, options: .alwaysMapped)
                return image
            }
            operation.finish(result)
        }
        operation.onCancel { job.cancel() }
        operation.onPriorityChange { job.setPriority($0) }
    }

    /// How `request`'s data is decoded: at its target, oriented unless it opts out.
    func decodeOptions(for request: ImageRequest, partial: Bool = false) -> DecodeOptions {
        DecodeOptions(target: request.decodeTarget, appliesOrientation: !request.options.skipsOrientation,
                      limits: configuration.limits, allowsPartialData: partial)
    }

    /// Runs `processors` in order, checking for cancellation between them.
    static func process(_ image: LoadedImage, with processors: [any ImageProcessing]) -> Result<LoadedImage, ImageError> {
        var image = image
        for processor in processors {
            if Task.isCancelled { return .failure(.cancelled) }
            do {
                image = try processor.process(image)
            } catch let error as ImageError {
                return .failure(error)
            } catch {
                return .failure(.processingFailed(processor: processor.identifier, reason: String(describing: error)))
            }
        }
        return .success(image)
    }

    /// What the caller gets and the memory cache keeps: the original data attached only when
    /// the request keeps it.
    private func store(_ image: LoadedImage, original: Data?, for request: ImageRequest, key: ImageCacheKey) -> LoadedImage {
        var image = image
        image.data = request.options.keepsData ? original : nil
        configuration.memoryCache?.store(image, for: key)
        return image
    }
}

extension ImageRequest.Source {
    /// Whether the data comes through the data loader (and so through the disk cache).
    var isRemote: Bool {
        switch self {
        case .url, .urlRequest: true
        case .file, .data: false
        }
    }
}
