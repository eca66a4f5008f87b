import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ImagePipeline {
    /// Fetches the encoded data of `source`, reporting download progress through `progress`
    /// and, when `partial` is given, the data so far each time a progressive JPEG completes a
    /// scan.
    func loadData(for source: ImageRequest.Source,
                  progress: @Sendable (ImageTask.Progress) -> Void,
                  partial: (@Sendable (Data) -> Void)? = nil) async -> Result<Data, ImageError> {
        switch source {
        case .file(let url):
            do {
                return .success(try Data(contentsOf: url, options: .mappedIfSafe))
            } catch {
                return .failure(.dataLoadingFailed(reason: "cannot read \(url.path): \(Self.reason(error))", cause: ErrorCause(error)))
            }
        case .data(_, let load):
            do {
                let data = try await load()
                return Task.isCancelled ? .failure(.cancelled) : .success(data)
            } catch let error as ImageError {
                return .failure(error)
            } catch is CancellationError {
                return .failure(.cancelled)
            } catch {
                return .failure(.dataLoadingFailed(reason: Self.reason(error), cause: ErrorCause(error)))
            }
        case .url(let url):
            return await stream(URLRequest(url: url), progress: progress, partial: partial)
        case .urlRequest(let request):
            return await stream(request, progress: progress, partial: partial)
        }
    }

    /// Collects the loader's chunks, reporting progress after each. A download cancelled after
    /// some bytes is kept for resuming when the loader and the server allow it; a kept one is
    /// resumed.
    private func stream(_ request: URLRequest, progress: @Sendable (ImageTask.Progress) -> Void,
                        partial: (@Sendable (Data) -> Void)?) async -> Result<Data, ImageError> {
        var data = Data()
        var total: Int?
        var scans = JPEGScanCounter()
        let resumable = ResumableLoad(request: request, loader: configuration.dataLoader, store: configuration.resumableData)
        do {
            for try await event in resumable.events() {
                switch event {
                case .response(_, let expectedLength, _):
                    total = expectedLength
                    if let expectedLength, expectedLength > 0 { data.reserveCapacity(min(expectedLength, 64 << 20)) }
                    progress(ImageTask.Progress(completed: 0, total: total))
                case .chunk(let chunk):
                    data.append(chunk)
                    progress(ImageTask.Progress(completed: data.count, total: total))
                    if let partial, scans.append(chunk) { partial(data) }
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
            return .failure(Task.isCancelled ? .cancelled : .network(reason: Self.reason(error), url: request.url,
                                                                     cause: ErrorCause(error)))
        }
        if Task.isCancelled {
            resumable.keep(data)
            return .failure(.cancelled)
        }
        return .success(data)
    }

    /// A readable reason for any error.
    static func reason(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
