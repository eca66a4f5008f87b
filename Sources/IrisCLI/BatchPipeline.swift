import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris

extension ImagePipeline {
    /// The pipeline of a command-line batch: `.file` sources decoded at the target and
    /// processed, `jobs` decodes and `jobs` processor chains at once. Each input is loaded once,
    /// so there is no memory cache, no disk cache, no store of partial downloads and no network
    /// session. `decoders` decode (the standard ones unless given). Pixels with an embedded
    /// profile are converted to sRGB unless `keepsProfile` (then they stay as stored, tagged with
    /// their profile, which the encoders write).
    static func batch(jobs: Int, decoders: ImageDecoderRegistry = .standard, keepsProfile: Bool = false) -> ImagePipeline {
        let jobs = max(jobs, 1)
        var decoders = decoders
        decoders.colorManagement = keepsProfile ? .keepSource : .convertToSRGB
        return ImagePipeline(
            configuration: Configuration(
                dataLoader: FilesOnlyLoader(), dataCache: nil, memoryCache: nil, decoders: decoders,
                maxConcurrentDownloads: jobs, maxConcurrentDecodes: jobs, maxConcurrentProcessing: jobs,
                resumableData: nil))
    }
}

/// The command line reads files only: a URL source fails at once (and no `URLSession` is made).
struct FilesOnlyLoader: DataLoading {
    func loadData(for request: URLRequest, byteLimit: Int?) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.finish(throwing: ImageError.dataLoadingFailed(reason: "the command line reads files only"))
        }
    }
}
