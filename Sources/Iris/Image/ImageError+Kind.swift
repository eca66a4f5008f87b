extension ImageError {
    /// What went wrong, without the details: compare kinds to react to a failure whatever its
    /// reason, URL or cause (`error.kind == .network`).
    public enum Kind: Sendable, Hashable {
        case emptyData, unsupportedFormat, truncated, decodingFailed, invalidDimensions, overLimit, encodingFailed,
             processingFailed, httpStatus, notAnImage, network, dataLoadingFailed, notCached, cancelled
    }

    /// This error's kind.
    public var kind: Kind {
        switch self {
        case .emptyData: .emptyData
        case .unsupportedFormat: .unsupportedFormat
        case .truncated: .truncated
        case .decodingFailed: .decodingFailed
        case .invalidDimensions: .invalidDimensions
        case .overLimit: .overLimit
        case .encodingFailed: .encodingFailed
        case .processingFailed: .processingFailed
        case .httpStatus: .httpStatus
        case .notAnImage: .notAnImage
        case .network: .network
        case .dataLoadingFailed: .dataLoadingFailed
        case .notCached: .notCached
        case .cancelled: .cancelled
        }
    }
}
