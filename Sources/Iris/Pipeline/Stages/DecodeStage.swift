import Foundation

/// The second stage: decodes the original bytes at the request's target size (and turns the
/// image upright unless the request opts out).
///
/// Shared by requests with the same data key, target, orientation and cache policy. A file
/// source is decoded straight from the mapped file (no fetch stage): a large file is never
/// resident whole. Otherwise the stage subscribes to the fetch stage and, while a progressive
/// JPEG arrives, decodes previews of the data so far: one at a time, in the decode queue; of the
/// data offered while one runs only the newest is kept, and decoded next (so the data that came
/// last before a pause, a whole scan, always gets its preview). Loaded data that does not decode
/// is removed from the disk cache.
final class DecodeStage: PipelineStage<StageImage, LoadedImage>, @unchecked Sendable {
    /// Requests with equal keys share one decode.
    struct Key: Hashable, Sendable {
        var data: DataKey
        var target: DecodeTarget?
        var skipsOrientation: Bool
        var cachePolicy: ImageRequest.CachePolicy
    }

    let dataKey: DataKey
    /// Whether a preview is being decoded, and the newest data offered meanwhile.
    private let previewState = LockedState<(isDecoding: Bool, pending: Data?)>((false, nil))

    init(pipeline: ImagePipeline, request: ImageRequest, dataKey: DataKey) {
        self.dataKey = dataKey
        super.init(pipeline: pipeline, request: request)
    }

    override func start() {
        if case .file(let url) = request.source, request.cachePolicy != .returnCacheDataDontLoad {
            // Straight from the mapped file, giving back the pages the decoder has read
            // (``ImageDecoderRegistry/decode(contentsOf:options:)``). The original data handed
            // on is the file mapped again (no read).
            return decode { decoders, options throws(ImageError) in
                StageImage(image: try decoders.decode(contentsOf: url, options: options),
                           originalData: try? Data(contentsOf: url, options: .alwaysMapped))
            }
        }
        subscribe { priority in
            pipeline.fetchData(request, dataKey: dataKey, priority: priority) { [self] event in
                switch event {
                case .progress(let progress): publish(progress)
                case .partial(let data): decodePreview(of: data)
                case .finished(.failure(let error)): finish(.failure(error))
                case .finished(.success(let data)):
                    decode { [self] decoders, options throws(ImageError) in
                        do throws(ImageError) {
                            return StageImage(image: try decoders.decode(data, options: options), originalData: data)
                        } catch {
                            forgetCachedData(after: error)
                            throw error
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` in the decode queue with the decoders and the request's options, and
    /// finishes with its result.
    private func decode(_ body: @escaping @Sendable (ImageDecoderRegistry, DecodeOptions) throws(ImageError) -> StageImage) {
        let options = decodeOptions()
        let decoders = pipeline.configuration.decoders
        enqueue(in: pipeline.decodeQueue) { [self] in
            guard !Task.isCancelled else { return }
            finish(Result { () throws(ImageError) in try body(decoders, options) })
        }
    }

    /// Removes data that does not decode (cut short, damaged, not an image at all) from the
    /// disk cache, so that a later load fetches it again instead of failing on the same bytes:
    /// a server that once sent a cut body must not leave it there. Limits and cancellation say
    /// nothing about the data and leave it.
    private func forgetCachedData(after error: ImageError) {
        guard request.source.usesDataLoader, let dataCache = pipeline.configuration.dataCache else { return }
        switch error {
        case .emptyData, .unsupportedFormat, .truncated, .decodingFailed, .invalidDimensions:
            dataCache.remove(for: dataKey.string)
        default:
            break
        }
    }

    /// Decodes `data` (the download so far) as a preview; while one is being decoded, keeps
    /// `data` to decode next instead (replacing older data kept so).
    private func decodePreview(of data: Data) {
        let isIdle = previewState.withLock { state in
            if state.isDecoding {
                state.pending = data
                return false
            }
            state.isDecoding = true
            return true
        }
        guard isIdle else { return }
        let options = decodeOptions(partial: true)
        let decoders = pipeline.configuration.decoders
        enqueue(in: pipeline.decodeQueue) { [self] in
            var next: Data? = data
            while let data = next {
                guard !Task.isCancelled, !isEnded else { break }
                if let preview = try? decoders.decode(data, options: options) {
                    publishPartial(preview)
                }
                next = previewState.withLock { state in
                    defer { state.pending = nil }
                    if state.pending == nil { state.isDecoding = false }   // idle again, in the same hold
                    return state.pending
                }
            }
            if next != nil { previewState.withLock { $0 = (false, nil) } }   // stopped early (cancelled, ended)
        }
    }

    /// At the request's target, oriented unless it opts out.
    private func decodeOptions(partial: Bool = false) -> DecodeOptions {
        DecodeOptions(target: request.decodeTarget, appliesOrientation: !request.options.skipsOrientation,
                      limits: pipeline.configuration.limits, allowsPartialData: partial)
    }
}

extension ImagePipeline {
    /// Subscribes to the decode stage for `request`.
    func decodeImage(_ request: ImageRequest, keys: RequestKeys, priority: ImageRequest.Priority,
                     observer: @escaping DecodeStage.Observer) -> StageSubscription<StageImage, LoadedImage> {
        let key = DecodeStage.Key(data: keys.data, target: keys.image.target, skipsOrientation: keys.image.skipsOrientation,
                                  cachePolicy: request.cachePolicy)
        return decodeStages.subscribe(to: key, priority: priority, observer: observer) {
            DecodeStage(pipeline: self, request: request, dataKey: keys.data)
        }
    }
}
