import Iris
import IrisServerCore

extension ServeError {
    /// The response for an Iris error (a fetch's, a header's, a decode's): a one-line reason
    /// without paths, addresses or the libraries' own messages; a policy refusal inside a load
    /// error comes out as it is.
    package init(_ error: ImageError) {
        if let inner = error.underlyingError as? ServeError {
            self = inner
            return
        }
        switch error {
        case .emptyData: self = .unprocessable("the source is empty")
        case .unsupportedFormat(let format): self = .unprocessable("the source format (\(format)) is not supported")
        case .truncated(let format, _, _): self = .unprocessable("the source \(format) is truncated")
        case .decodingFailed(let format, _): self = .unprocessable("the source \(format) cannot be decoded")
        case .invalidDimensions(let format, _, _): self = .unprocessable("the source \(format) has invalid dimensions")
        case .overLimit(let violation):
            switch violation {
            // 422 as imgproxy answers a source over its resolution limit (`ImageResolutionError`).
            case .pixels(let width, let height, _): self = .unprocessable("the source is \(width)×\(height), over the resolution limit")
            case .frames(let count, _): self = .tooLarge("the source has \(count) frames, over the frame limit")
            case .decodedBytes: self = .tooLarge("the source decodes to more memory than allowed")
            case .encodedBytes: self = .tooLarge("the source is larger than the size limit")
            case .videoDuration: self = .tooLarge("the source video is longer than the duration limit")
            case .decodingTime: self = ServeError(status: 504, "decoding the source took longer than the time limit")
            }
        case .encodingFailed(let format, _): self = ServeError(status: 500, "the result could not be encoded as \(format)")
        case .processingFailed: self = .unprocessable("the image could not be processed with these options")
        case .httpStatus(let code, _):
            self =
                code == 404 || code == 410 ? .notFound("the source was not found") : ServeError(status: 502, "the source answered \(code)")
        case .notAnImage: self = .unprocessable("the source is not an image")
        case .network, .dataLoadingFailed: self = ServeError(status: 502, "the source could not be loaded")
        case .notCached: self = .notFound("the source is not cached")
        case .cancelled: self = ServeError(status: 503, "the request was cancelled")
        }
    }
}
