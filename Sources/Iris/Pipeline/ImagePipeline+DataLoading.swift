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
                return .failure(.dataLoadingFailed(reason: "cannot read \(url.path): \(Self.reason(error))"))
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
                return .failure(.dataLoadingFailed(reason: Self.reason(error)))
            }
        case .url(let url):
            return await stream(URLRequest(url: url), progress: progress, partial: partial)
        case .urlRequest(let request):
            return await stream(request, progress: progress, partial: partial)
        }
    }

    /// Collects the loader's chunks, reporting progress after each.
    private func stream(_ request: URLRequest, progress: @Sendable (ImageTask.Progress) -> Void,
                        partial: (@Sendable (Data) -> Void)?) async -> Result<Data, ImageError> {
        var data = Data()
        var total: Int?
        var scans = JPEGScanCounter()
        do {
            for try await event in configuration.dataLoader.loadData(for: request) {
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
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(Task.isCancelled ? .cancelled : .network(reason: Self.reason(error), url: request.url))
        }
        return Task.isCancelled ? .failure(.cancelled) : .success(data)
    }

    /// A readable reason for any error.
    static func reason(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
