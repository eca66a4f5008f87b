import Iris
import Observation

/// Plays the clip of a video shown as an image (``/Iris/LoadedImage/video``): every decision of
/// the views' player, which only follows it (AVFoundation, Apple platforms).
///
/// The poster (the image's pixels, ``ImageModel/phase``) is shown first, as soon as it is
/// decoded. A view makes a player while ``wantsPlayer`` says so, and shows it over the poster
/// once the player has its first frame ready (``showsPlayer``, after
/// ``playerDidBecomeReady()``). The clip plays muted (``isMuted``) and looping (``loops``) while
/// the policy that plays animated images allows it (``isPlaying``): switched on
/// (``ImageModel/playsAnimations``, a view's `.animatesFrames`), video auto-play on in the
/// system's accessibility settings, the app active, a view showing it visible (on screen, in its
/// scroll view's visible area, its window not covered). The player starts at the poster's frame
/// (``startSeconds``) and is given no audio track (``includesAudioTracks``). Off
/// screen, or switched off, the player is let go (``wantsPlayer`` false) and the poster shows;
/// a player that fails (``playerDidFail(reason:)``) is let go for good and the poster stays: the
/// view is never blank.
@MainActor @Observable
public final class VideoPlayback {
    /// What the view shows of the video.
    public enum State: Sendable, Equatable {
        /// The poster: no player, or none with a frame ready yet.
        case poster
        /// The player, playing.
        case playing
        /// The player, paused on its current frame (covered, scrolled away, app inactive).
        case paused
        /// The player failed; the poster stays.
        case failed(ImageError)
    }

    /// The clip played.
    public let video: EncodedVideo
    /// Whether the player plays without sound: always (an image slot never makes noise).
    public let isMuted = true
    /// Whether the clip starts again at its end: always.
    public let loops = true
    /// Whether the player is given the clip's audio tracks: never. A muted player of a clip that
    /// has sound can still activate the app's audio session and stop the user's music; a player
    /// given only the video track has nothing to play through it, so it never touches the session
    /// (and the app's audio category is never changed).
    public let includesAudioTracks = false
    /// Where the player starts, in seconds from the clip's start: the time of the poster
    /// (``/Iris/EncodedVideo/posterSeconds``, the first frame that is not black). A clip that
    /// fades in from black would otherwise go poster, black, picture when its player appears;
    /// started at the poster's frame it goes on from the very frame already shown. Loops start
    /// at the beginning.
    public var startSeconds: Double { video.posterSeconds }
    /// Whether a view should have a player for the clip now; when this turns false the view
    /// lets its player go.
    public private(set) var wantsPlayer = false
    /// Whether the player should play now (else it stays paused on its frame).
    public private(set) var isPlaying = false
    /// Whether the player has its first frame ready (reported by the view).
    public private(set) var isReadyForDisplay = false
    /// Why the player failed, if it did.
    public private(set) var error: ImageError?

    /// Makes a playback of `video` that wants no player until told what the views can see.
    init(video: EncodedVideo) {
        self.video = video
    }

    /// What the view shows.
    public var state: State {
        if let error { return .failed(error) }
        guard showsPlayer else { return .poster }
        return isPlaying ? .playing : .paused
    }

    /// Whether the view shows its player over the poster: it wants one and the first frame is
    /// ready (until then the poster shows, never an empty layer).
    public var showsPlayer: Bool { wantsPlayer && isReadyForDisplay }

    /// The view's player has its first frame ready to draw (`AVPlayerLayer.isReadyForDisplay`).
    /// Ignored while no player is wanted (a late report of a player already let go).
    public func playerDidBecomeReady() {
        guard wantsPlayer, !isReadyForDisplay else { return }
        isReadyForDisplay = true
    }

    /// The view's player could not play the clip: it is let go and the poster stays.
    public func playerDidFail(reason: String) {
        guard error == nil else { return }
        error = .decodingFailed(format: video.format, reason: reason)
        apply(wantsPlayer: false, isPlaying: false)
    }

    /// Follows the visibility policy of the model's animations: a player while switched on and
    /// a view showing it is on screen, playing while one can see it.
    func follow(_ visibility: PlaybackVisibility) {
        let wanted = error == nil && visibility.wantsVideoPlayer
        apply(wantsPlayer: wanted, isPlaying: wanted && visibility.shouldPlayVideo)
    }

    private func apply(wantsPlayer wanted: Bool, isPlaying playing: Bool) {
        if wantsPlayer != wanted {
            wantsPlayer = wanted
            if !wanted, isReadyForDisplay { isReadyForDisplay = false }  // a new player shows the poster first
        }
        if isPlaying != playing { isPlaying = playing }
    }
}
