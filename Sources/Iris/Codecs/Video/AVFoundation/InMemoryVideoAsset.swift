#if canImport(AVFoundation) && !os(watchOS)
import AVFoundation
import Foundation

/// An AVFoundation asset that reads a video from memory (``EncodedVideo``): AVFoundation asks a
/// resource loader for byte ranges of a URL of Iris's own scheme, and gets slices of the bytes
/// the pipeline already holds; nothing is written to disk or loaded again. The poster decoder
/// and IrisUI's player views both read videos so.
public final class InMemoryVideoAsset {
    /// The asset, for an image generator or a player item. Valid while this object lives.
    public let asset: AVURLAsset
    /// Serves the bytes; an asset's resource loader holds its delegate only weakly.
    private let loader: InMemoryVideoLoader

    /// The asset of `video`; throws for a format AVFoundation cannot play (WebM, Matroska).
    public init(_ video: EncodedVideo) throws(ImageError) {
        try AVFoundationVideoFormats.checkPlayable(video.format)
        guard let contentType = AVFoundationVideoFormats.contentType(of: video.format),
            let url = URL(string: "\(InMemoryVideoLoader.scheme)://memory/\(UUID().uuidString).\(video.format.fileExtension ?? "mp4")")
        else {
            throw .decodingFailed(format: video.format, reason: "AVFoundation cannot play \(video.format)")
        }
        loader = InMemoryVideoLoader(data: video.data, contentType: contentType)
        asset = AVURLAsset(url: url)
        asset.resourceLoader.setDelegate(loader, queue: InMemoryVideoLoader.queue)
    }
}

/// Answers an asset's requests for the bytes of an in-memory video: its type and length, and
/// any byte range of it.
private final class InMemoryVideoLoader: NSObject, AVAssetResourceLoaderDelegate, Sendable {
    /// A scheme AVFoundation does not load itself, so it asks the delegate.
    static let scheme = "iris-memory-video"
    /// Where the delegate is called: serving a range only slices the data.
    static let queue = DispatchQueue(label: "Iris.in-memory-video")

    private let data: Data
    private let contentType: String

    init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }

    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool {
        if let information = loadingRequest.contentInformationRequest {
            information.contentType = contentType
            information.contentLength = Int64(data.count)
            information.isByteRangeAccessSupported = true
        }
        if let dataRequest = loadingRequest.dataRequest {
            let start = Int(clamping: max(0, dataRequest.currentOffset))
            let end =
                dataRequest.requestsAllDataToEndOfResource
                ? data.count
                : Int(clamping: dataRequest.requestedOffset) + dataRequest.requestedLength
            let range = min(start, data.count)..<min(max(start, end), data.count)
            dataRequest.respond(with: data.subdata(in: (data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)))
        }
        loadingRequest.finishLoading()
        return true
    }
}
#endif
