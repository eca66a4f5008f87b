/// What AVFoundation (Apple platforms) plays of the video formats Iris recognises: MP4 and
/// QuickTime. WebM and Matroska are refused with an error that says so, before anything is
/// decoded. Platform-neutral, so that the rule is tested on Linux.
enum AVFoundationVideoFormats {
    /// The containers AVFoundation reads.
    static let playable: Set<ImageFormat> = [.mp4, .quickTime]

    /// Throws the error that says AVFoundation cannot play `format` (WebM, Matroska).
    static func checkPlayable(_ format: ImageFormat) throws(ImageError) {
        guard !playable.contains(format) else { return }
        throw .decodingFailed(format: format, reason: "AVFoundation cannot play \(format)")
    }

    /// The uniform type identifier AVFoundation is told the bytes are (a resource loader's
    /// content type), for a playable format.
    static func contentType(of format: ImageFormat) -> String? {
        switch format {
        case .mp4: "public.mpeg-4"
        case .quickTime: "com.apple.quicktime-movie"
        default: nil
        }
    }
}
