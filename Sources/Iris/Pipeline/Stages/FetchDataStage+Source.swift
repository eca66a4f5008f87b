import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FetchDataStage {
    /// What a load gave.
    enum Loaded {
        /// The bytes asked for (the service's rendition, when routed through one).
        case success(Data)
        /// The original's bytes, loaded because the image service failed with `error`.
        case fellBack(Data, after: ImageError)
        /// Nothing.
        case failure(ImageError)

        init(_ result: Result<Data, ImageError>) {
            switch result {
            case .success(let data): self = .success(data)
            case .failure(let error): self = .failure(error)
            }
        }
    }

    /// Reads or loads the source's bytes: a file, a `.data` closure, the image service's
    /// rendition of a URL (the original once if the service fails), or the data loader's stream
    /// (with progress and, when progressive decoding is on, partial data).
    func loadSourceData() async -> Loaded {
        if let routing = graph.serviceRouting, let rendition = keys.data.rendition, case .url(let source) = request.source {
            return await loadRendition(rendition.rendition, of: source, from: routing.service)
        }
        return Loaded(await loadOriginal())
    }

    /// The service's rendition; the original once when the service fails on its own.
    private func loadRendition(_ rendition: ImageRendition, of source: URL, from service: any ImageService) async -> Loaded {
        let failure: ImageError
        do {
            let urlRequest = try await service.urlRequest(for: source, rendition: rendition)
            switch await stream(urlRequest) {
            case .success(let data): return .success(data)
            case .failure(let error): failure = error
            }
        } catch let error as ImageError {
            failure = error
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            failure = .dataLoadingFailed(reason: "the image service's URL: \(ErrorCause.reason(error))", cause: ErrorCause(error))
        }
        guard !Task.isCancelled, ServiceRouting.fallsBack(after: failure) else { return .failure(failure) }
        switch await stream(URLRequest(url: source)) {
        case .success(let data): return .fellBack(data, after: failure)
        case .failure(let error): return .failure(error)
        }
    }

    /// The source's own bytes.
    private func loadOriginal() async -> Result<Data, ImageError> {
        switch request.source {
        case .file(let url):
            do {
                return .success(try Data(contentsOf: url, options: .mappedIfSafe))
            } catch {
                return .failure(
                    .dataLoadingFailed(reason: "cannot read \(url.path): \(ErrorCause.reason(error))", cause: ErrorCause(error)))
            }
        case .data(_, let load):
            do {
                let data = try await load()
                if Task.isCancelled { return .failure(.cancelled) }
                let limit = graph.configuration.maxDataBytes
                return data.count > limit ? .failure(.overLimit(.encodedBytes(bytes: data.count, limit: limit))) : .success(data)
            } catch let error as ImageError {
                return .failure(error)
            } catch is CancellationError {
                return .failure(.cancelled)
            } catch {
                return .failure(.dataLoadingFailed(reason: ErrorCause.reason(error), cause: ErrorCause(error)))
            }
        case .url(let url):
            return await stream(URLRequest(url: url))
        case .urlRequest(let urlRequest):
            return await stream(urlRequest)
        }
    }

    /// Collects the loader's chunks, reporting progress after each. A download cancelled after
    /// some bytes is kept for resuming when the loader and the server allow it; a kept one is
    /// resumed. A response announcing more than ``ImagePipeline/Configuration/maxDataBytes``,
    /// or a body growing past it, fails at once: a loader that can stops the body itself
    /// (it is passed the limit), so unread bytes cannot pile up; for any other, returning
    /// here ends the iteration, which cancels the load.
    private func stream(_ request: URLRequest) async -> Result<Data, ImageError> {
        var data = Data()
        var total: Int?
        var scans = JPEGScanCounter()
        let configuration = graph.configuration
        let limit = configuration.maxDataBytes
        let reportsPartialData = configuration.isProgressiveDecodingEnabled
        let resumable = ResumableLoad(
            request: request, loader: configuration.dataLoader, store: configuration.resumableData,
            byteLimit: limit)
        do {
            for try await event in resumable.events() {
                switch event {
                case .response(let response):
                    let expectedLength = response.expectedLength
                    if let expectedLength, expectedLength > limit {
                        return .failure(.overLimit(.encodedBytes(bytes: expectedLength, limit: limit)))
                    }
                    total = expectedLength
                    if let expectedLength, expectedLength > 0 { data.reserveCapacity(min(expectedLength, 64 << 20)) }
                    publish(ImageTask.Progress(completed: 0, total: total))
                case .chunk(let chunk):
                    if chunk.count > limit - data.count {
                        return .failure(.overLimit(.encodedBytes(bytes: data.count + chunk.count, limit: limit)))
                    }
                    data.append(chunk)
                    publish(ImageTask.Progress(completed: data.count, total: total))
                    if reportsPartialData, scans.append(chunk) { publishPartial(data) }
                }
            }
        } catch let error as ImageError {
            if error == .cancelled { resumable.keep(data) }
            return .failure(error)
        } catch is CancellationError {
            resumable.keep(data)
            return .failure(.cancelled)
        } catch {
            if Task.isCancelled { resumable.keep(data) }
            return .failure(
                Task.isCancelled
                    ? .cancelled
                    : .network(
                        reason: ErrorCause.reason(error), url: request.url,
                        cause: ErrorCause(error)))
        }
        if Task.isCancelled {
            resumable.keep(data)
            return .failure(.cancelled)
        }
        return .success(data)
    }

}
