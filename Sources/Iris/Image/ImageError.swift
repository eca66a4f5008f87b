import Foundation

/// Everything that can go wrong while loading, decoding, processing or encoding an image.
///
/// Switch over the cases to react; `description` is a sentence a person can read, e.g.
/// "PNG is truncated after 4,096 of 91,233 bytes".
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data was empty.
    case emptyData
    /// The data is a format Iris recognises but cannot decode (or nothing recognisable).
    case unsupportedFormat(ImageFormat)
    /// The data ended before the image did. `expected` is the full length when known.
    case truncated(format: ImageFormat, received: Int, expected: Int?)
    /// The codec rejected the data.
    case decodingFailed(format: ImageFormat, reason: String)
    /// The header states a size that cannot be an image (zero, negative, absurd).
    case invalidDimensions(format: ImageFormat, width: Int, height: Int)
    /// Decoding would exceed a ``DecodingLimits`` limit (checked before allocating), or a
    /// source's data would exceed ``ImagePipeline/Configuration/maxDataBytes``.
    case overLimit(LimitViolation)
    /// The encoder failed.
    case encodingFailed(format: ImageFormat, reason: String)
    /// A processor failed.
    case processingFailed(processor: String, reason: String)
    /// The server answered with a status outside 200–299.
    case httpStatus(code: Int, url: URL?)
    /// The response was not an image (an HTML page, JSON), though it came with success.
    case notAnImage(ImageFormat, url: URL?)
    /// The transport failed (connection refused, reset, timed out). `cause` is the loader's
    /// own error (a `URLError`: see ``urlErrorCode``).
    case network(reason: String, url: URL?, cause: ErrorCause = .none)
    /// A `.data(id:load:)` closure or a file read threw; `cause` is what it threw.
    case dataLoadingFailed(reason: String, cause: ErrorCause = .none)
    /// The request asked for cached data only and there was none.
    case notCached
    /// The task was cancelled.
    case cancelled

    /// Which limit a load or a decode would have exceeded.
    public enum LimitViolation: Sendable, Equatable {
        /// Source pixels over ``DecodingLimits/maxPixels``.
        case pixels(width: Int, height: Int, limit: Int)
        /// Frames over ``DecodingLimits/maxFrames``.
        case frames(count: Int, limit: Int)
        /// Decoded output bytes over ``DecodingLimits/maxDecodedBytes``.
        case decodedBytes(bytes: Int, limit: Int)
        /// A source's encoded data over ``ImagePipeline/Configuration/maxDataBytes``. `bytes` is
        /// the length the server announced (`Content-Length`) when that was already over the
        /// limit, else the bytes received when the limit was crossed (the load stops there).
        case encodedBytes(bytes: Int, limit: Int)
        /// A video longer than ``DecodingLimits/maxVideoSeconds``, by its header.
        case videoDuration(seconds: Double, limit: Double)
        /// A decode that ran past ``DecodingLimits/maxDecodingTime`` and was stopped.
        case decodingTime(limit: Duration)
    }

    /// A sentence a person can read: "PNG is truncated after 4,096 of 91,233 bytes".
    public var description: String {
        switch self {
        case .emptyData:
            return "no data: the image is empty"
        case .unsupportedFormat(let format):
            return format == .unknown
                ? "not a recognised image format"
                : "\(format) images are not supported"
        case let .truncated(format, received, expected):
            if let expected {
                return "\(format) is truncated after \(received.grouped) of \(expected.grouped) bytes"
            }
            return "\(format) is truncated after \(received.grouped) bytes"
        case let .decodingFailed(format, reason):
            return "\(format) could not be decoded: \(reason)"
        case let .invalidDimensions(format, width, height):
            return "\(format) header states an impossible size of \(width)×\(height)"
        case .overLimit(let violation):
            switch violation {
            case let .pixels(width, height, limit):
                return
                    "image is \(width)×\(height) (\(Self.pixelAmount(Double(width) * Double(height)))), over the \(Self.pixelAmount(Double(limit))) limit"
            case let .frames(count, limit):
                return "animation has \(count.grouped) frames, over the limit of \(limit.grouped)"
            case let .decodedBytes(bytes, limit):
                return "decoded image would take \(Self.byteAmount(bytes)), over the \(Self.byteAmount(limit)) limit"
            case let .encodedBytes(bytes, limit):
                return "image data of \(Self.byteAmount(bytes)) (\(bytes.grouped) bytes) is over the \(Self.byteAmount(limit)) limit"
            case let .videoDuration(seconds, limit):
                return "video lasts \(Self.trim(seconds)) s, over the limit of \(Self.trim(limit)) s"
            case .decodingTime(let limit):
                return "decoding was stopped after the time limit of \(limit)"
            }
        case let .encodingFailed(format, reason):
            return "\(format) could not be encoded: \(reason)"
        case let .processingFailed(processor, reason):
            return "processor \(processor) failed: \(reason)"
        case let .httpStatus(code, url):
            return "HTTP \(code)" + (url.map { " for \($0.absoluteString)" } ?? "")
        case let .notAnImage(format, url):
            return "the response is \(format), not an image" + (url.map { " (\($0.absoluteString))" } ?? "")
        case let .network(reason, url, _):
            return "network error: \(reason)" + (url.map { " (\($0.absoluteString))" } ?? "")
        case .dataLoadingFailed(let reason, _):
            return "loading the data failed: \(reason)"
        case .notCached:
            return "the image is not in the cache and the request forbids loading it"
        case .cancelled:
            return "cancelled"
        }
    }

    /// "3.6 GP", "256 MP", "12 kP".
    static func pixelAmount(_ pixels: Double) -> String {
        let value = pixels
        if value >= 1e9 { return "\(trim(value / 1e9)) GP" }
        if value >= 1e6 { return "\(trim(value / 1e6)) MP" }
        if value >= 1e3 { return "\(trim(value / 1e3)) kP" }
        return "\(Int(pixels)) pixels"
    }

    /// "1.5 GiB", "200 MiB", "12 KiB".
    static func byteAmount(_ bytes: Int) -> String {
        let value = Double(bytes)
        if value >= 1_073_741_824 { return "\(trim(value / 1_073_741_824)) GiB" }
        if value >= 1_048_576 { return "\(trim(value / 1_048_576)) MiB" }
        if value >= 1024 { return "\(trim(value / 1024)) KiB" }
        return "\(bytes) bytes"
    }

    /// One decimal, dropped when it is zero: 3.6, 256.
    private static func trim(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}

extension ImageError {
    /// The error underneath a network or data-loading failure: the loader's `URLError`, or what
    /// a `.data` closure or a file read threw.
    public var underlyingError: (any Error)? {
        switch self {
        case .network(_, _, let cause), .dataLoadingFailed(_, let cause): cause.error
        default: nil
        }
    }

    /// The `URLError` code of a network failure, when the loader gave one.
    public var urlErrorCode: URLError.Code? {
        guard let error = underlyingError else { return nil }
        if let error = error as? URLError { return error.code }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    }
}

extension ImageError: LocalizedError {
    /// The ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension Int {
    /// Thousands grouped with commas: 91,233.
    var grouped: String {
        let digits = String(magnitude)
        var out = ""
        for (index, char) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(char)
        }
        return self < 0 ? "-" + out : out
    }
}
