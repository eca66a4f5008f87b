#if canImport(SwiftUI)
import SwiftUI

extension EnvironmentValues {
    /// The clip of the video an ``IrisImage`` shows, for the image its content marks with
    /// ``SwiftUICore/View/playsVideo()``; `nil` outside an ``IrisImage``, for a still, or while
    /// `.animatesFrames(false)`.
    var videoPlayback: VideoPlayback? {
        get { self[VideoPlaybackKey.self] }
        set { self[VideoPlaybackKey.self] = newValue }
    }
}

/// The environment's key of ``SwiftUICore/EnvironmentValues/videoPlayback``.
private struct VideoPlaybackKey: EnvironmentKey {
    static let defaultValue: VideoPlayback? = nil
}

extension View {
    /// Plays the clip of the video whose poster this view draws, over it, in exactly its frame,
    /// inside an ``IrisImage``'s content; for a still image, or outside an ``IrisImage``, it
    /// changes nothing.
    ///
    /// Apply it to the image itself, after the modifiers that size it (`resizable()`,
    /// `scaledToFill()`, `aspectRatio`, a `frame`) and before those that surround it (padding, a
    /// background, an overlay, a caption in a stack): the player takes the image's frame and is
    /// stretched to it as the image is, so it covers the poster pixel for pixel, and whatever is
    /// drawn around or above the image stays where it is. A clip shape or `clipped()` applied
    /// after it cuts both. The poster shows until the player's first frame is ready (AVFoundation,
    /// not on watchOS, which has no video decoder: a video there fails with a typed error).
    public func playsVideo() -> some View {
        modifier(VideoClipOverlay())
    }
}

/// The player of ``SwiftUICore/View/playsVideo()``: laid over the image while the playback wants
/// a player, stretched to the image's frame (the image fills its frame in every content mode,
/// so the clip lands where its poster is).
private struct VideoClipOverlay: ViewModifier {
    @Environment(\.videoPlayback) private var playback

    func body(content: Content) -> some View {
        #if canImport(AVFoundation) && !os(watchOS)
        content.overlay {
            if let playback, playback.wantsPlayer {
                VideoPlayerRepresentable(playback, gravity: .resize)
                    .allowsHitTesting(false)
                    .accessibilityHidden(true)
            }
        }
        #else
        content
        #endif
    }
}
#endif
