import Foundation

/// The image stage: decodes the original bytes at the request's target size (turned upright
/// unless the request opts out), runs the request's processors on the result, and stores it in
/// the memory cache. One stage from the bytes to the image the caller gets, as a request reads.
///
/// Shared by requests with the same key (``ImageStageKey``: data, target, orientation,
/// processors and cache policy). A file source is decoded straight from the mapped file (no
/// fetch stage): a large file is never resident whole. A source in the disk cache is read and
/// decoded in one decode job (no fetch stage; the one disk read of the load). Otherwise the stage
/// subscribes to the fetch stage that loads and, while a progressive JPEG arrives, decodes
/// previews of the data so far: one at a time, in the decode queue; of the data offered while one
/// runs only the newest is kept, and decoded next (so the data that came last before a pause, a
/// whole scan, always gets its preview). Loaded data that does not decode is removed from the
/// disk cache (a server that once sent a cut body must not leave it there). Processors run in
/// the process queue after the decode (on previews: on the preview decode's thread, as previews
/// are few and small). Every cache access goes through ``PipelineGraph/caches``.
final class ImageStage: PipelineStage<StageImage, LoadedImage>, @unchecked Sendable {
    /// Whether a preview is being decoded, and the newest data offered meanwhile.
    private let previewState = LockedState<(isDecoding: Bool, pending: Data?)>((false, nil))

    override func start() {
        if case .file(let url) = request.source, request.cachePolicy != .returnCacheDataDontLoad {
            // Straight from the mapped file, giving back the pages the decoder has read
            // (``ImageDecoderRegistry/decode(contentsOf:options:)``). The original data handed
            // on is the file mapped again (no read).
            return decodeThenProcess { decoders, options throws(ImageError) in
                StageImage(
                    image: try await decoders.decodeAwaiting(contentsOf: url, options: options),
                    originalData: try? Data(contentsOf: url, options: .alwaysMapped))
            }
        }
        if graph.caches.readsData(for: keys) { return readCacheThenDecode() }
        followFetch(keys.withoutDiskRead)
    }

    /// Reads the disk cache and, on a hit it may use, decodes in the same job: one queue hop for
    /// the most common load of a scrolling list, not a read job and then a decode job. A miss
    /// follows the fetch stage, which then loads without reading the disk cache again; stored
    /// data that must be revalidated first follows the fetch stage that reads and revalidates it.
    ///
    /// Stored data is used at once when it is fresh, when the request's policy takes whatever
    /// is stored, or when it is stale but may be shown while it is revalidated
    /// (`stale-while-revalidate`): that revalidation starts once the image is in the memory
    /// cache (``store(_:)``).
    private func readCacheThenDecode() {
        let options = decodeOptions()
        let decoders = graph.configuration.decoders
        enqueue(in: graph.decodeQueue) { [self] in
            guard !Task.isCancelled else { return }
            guard let entry = graph.caches.entry(for: keys) else { return followFetch(keys.withoutDiskRead) }
            let usesStoredData: Bool =
                switch request.cachePolicy {
                case .returnCacheDataElseLoad, .returnCacheDataDontLoad: true
                case .useProtocolCachePolicy: graph.caches.validity(of: entry).servesWhileRevalidating  // true when fresh
                case .reloadRevalidatingCacheData, .reloadIgnoringLocalCacheData: false
                }
            guard usesStoredData else { return followFetch(keys) }
            do throws(ImageError) {
                let fetched = FetchedData(stored: entry, origin: .diskCache, keys: keys)
                processThenFinish(try await decodeLoaded(fetched, decoders, options))
            } catch {
                finish(.failure(error))
            }
        }
    }

    /// Subscribes to the fetch stage of `fetchKeys` (one that loads without reading the disk
    /// cache, which this stage has read or may not; or one that revalidates what is stored):
    /// previews from its partial data, then the decode of its data.
    private func followFetch(_ fetchKeys: ImageRequestKeys) {
        follow(
            { [graph] in graph.fetchData($0, keys: fetchKeys, priority: $2, observer: $3) },
            partial: { [self] data in decodePreview(of: data) }
        ) { [self] fetched in
            decodeThenProcess { [self] decoders, options throws(ImageError) in try await decodeLoaded(fetched, decoders, options) }
        }
    }

    /// Decodes data that came through the loader or the disk cache, the image carrying what it
    /// is made from (the HTTP metadata of its bytes, the service's rendition they are); data that
    /// does not decode is forgotten there. Why a service could not render is the fetch's to
    /// say (``FetchedData/serviceFallback``), not the image's.
    private func decodeLoaded(
        _ fetched: FetchedData, _ decoders: ImageDecoderRegistry, _ options: DecodeOptions
    ) async throws(ImageError) -> StageImage {
        do throws(ImageError) {
            var image = try await decoders.decodeAwaiting(fetched.data, options: options)
            image.httpMetadata = fetched.httpMetadata
            image.rendition = fetched.rendition
            var result = StageImage(image: image, originalData: fetched.data)
            result.isUnrevalidatedStaleData = fetched.origin == .diskCache && !graph.caches.validity(of: image).isFresh
            return result
        } catch {
            graph.caches.forgetData(of: request, keys: keys, after: error)
            throw error
        }
    }

    /// Runs `body` in the decode queue with the decoders and the request's options, then the
    /// processors on its result (``processThenFinish(_:)``). A decoder whose work is asynchronous
    /// (video on Apple platforms) is awaited, holding no thread
    /// (``ImageDecoderRegistry/decodeAwaiting(_:options:)``).
    private func decodeThenProcess(
        _ body: @escaping @Sendable (ImageDecoderRegistry, DecodeOptions) async throws(ImageError) -> StageImage
    ) {
        let options = decodeOptions()
        let decoders = graph.configuration.decoders
        enqueue(in: graph.decodeQueue) { [self] in
            guard !Task.isCancelled else { return }
            do throws(ImageError) {
                processThenFinish(try await body(decoders, options))
            } catch {
                finish(.failure(error))
            }
        }
    }

    /// Runs the request's processors on `decoded` in the process queue (none: at once), stores
    /// the result and finishes with it.
    private func processThenFinish(_ decoded: StageImage) {
        let processors = request.processors
        guard !processors.isEmpty else { return finish(.success(store(decoded))) }
        enqueue(in: graph.processQueue) { [self] in
            guard !Task.isCancelled else { return }
            finish(
                decoded.image.applying(processors).map { processed in
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
    /// revalidated in the background: after the store, so that a revalidation finding new bytes
    /// removes this image too.
    private func store(_ result: StageImage) -> StageImage {
        graph.caches.storeResult(result, of: request, keys: keys)
        if request.cachePolicy == .useProtocolCachePolicy, result.isUnrevalidatedStaleData {
            graph.revalidateInBackground(request, keys: keys)
        }
        return result
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
        let decoders = graph.configuration.decoders
        enqueue(in: graph.decodeQueue) { [self] in
            var next: Data? = data
            while let data = next {
                guard !Task.isCancelled, !isEnded else { break }
                if let preview = try? await decoders.decodeAwaiting(data, options: options),
                    case .success(let processed) = preview.applying(request.processors)
                {
                    publishPartial(processed)
                }
                next = previewState.withLock { state in
                    defer { state.pending = nil }
                    if state.pending == nil { state.isDecoding = false }  // idle again, in the same hold
                    return state.pending
                }
            }
            if next != nil { previewState.withLock { $0 = (false, nil) } }  // stopped early (cancelled, ended)
        }
    }

    /// At the request's target, oriented unless it opts out.
    private func decodeOptions(partial: Bool = false) -> DecodeOptions {
        DecodeOptions(
            target: request.decodeTarget, appliesOrientation: !request.options.skipsOrientation,
            limits: graph.configuration.limits, allowsPartialData: partial)
    }
}
