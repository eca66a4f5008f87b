extension ImageError {
    /// What went wrong, without the details: compare kinds to react to a failure whatever its
    /// reason, URL or cause (`error.kind == .network`).
    public enum Kind: Sendable, Hashable {
        /// ``ImageError/emptyData``.
        case emptyData
        /// ``ImageError/unsupportedFormat(_:)``.
        case unsupportedFormat
        /// ``ImageError/truncated(format:received:expected:)``.
        case truncated
        /// ``ImageError/decodingFailed(format:reason:)``.
        case decodingFailed
        /// ``ImageError/invalidDimensions(format:width:height:)``.
        case invalidDimensions
        /// ``ImageError/overLimit(_:)``.
        case overLimit
        /// ``ImageError/encodingFailed(format:reason:)``.
        case encodingFailed
        /// ``ImageError/processingFailed(processor:reason:)``.
        case processingFailed
        /// ``ImageError/httpStatus(code:url:)``.
        case httpStatus
        /// ``ImageError/notAnImage(_:url:)``.
        case notAnImage
        /// ``ImageError/network(reason:url:cause:)``.
        case network
        /// ``ImageError/dataLoadingFailed(reason:cause:)``.
        case dataLoadingFailed
        /// ``ImageError/notCached``.
        case notCached
        /// ``ImageError/cancelled``.
        case cancelled
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
