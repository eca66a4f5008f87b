import Iris
import Observation

/// Plays the clip of a video shown as an image (``/Iris/LoadedImage/video``): every decision of
/// the views' player, which only follows it (AVFoundation, Apple platforms).
///
/// The poster (the image's pixels, ``ImageModel/phase``) is shown first, as soon as it is
/// decoded. A view makes a player while ``wantsPlayer`` says so and plays it; each view shows its
/// own player over the poster once that player's first frame is ready (until then the poster
/// shows, never an empty layer). A player exists only while the clip can be seen and a player
/// slot is free (``VideoPlayerSlots``): switched on (``ImageModel/playsAnimations``, a view's
/// `.animatesFrames`), video auto-play on in the system's accessibility settings, the app
/// active, a view showing it visible (on screen, in its scroll view's visible area, its window
/// not covered). Anywhere else the player is let go and the poster shows, so the players alive at
/// once are bounded by what can be seen, never by what a lazy container keeps.
///
/// The clip plays muted (``isMuted``) and looping (``loops``), from the poster's frame
/// (``startSeconds``), given no audio track (``includesAudioTracks``). A player that fails
/// (``playerDidFail(reason:)``: an unreadable clip, an interruption, a media-services reset, no
/// hardware decoder free) is let go and the poster stays; it is tried again the next time the
/// clip comes into sight, or on ``retry()`` (``ImageModel/retry()``): the view is never blank and
/// never stuck.
@MainActor @Observable
public final class VideoPlayback {
    /// What the views show of the video.
    public enum State: Sendable, Equatable {
        /// The poster: no player, or none with a frame ready yet.
        case poster
        /// A player, playing over the poster.
        case playing
        /// The last player failed; the poster stays until the clip is tried again.
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
    /// Whether a view should have a player for the clip now, playing; when this turns false the
    /// view lets its player go.
    public private(set) var wantsPlayer = false
    /// Whether a view's player has shown its first frame since the player was last wanted.
    public private(set) var isReadyForDisplay = false
    /// Why the last player failed, if it did and the clip has not been tried again.
    public private(set) var error: ImageError?

    /// The slots this playback's player takes one of.
    @ObservationIgnored private let slots: VideoPlayerSlots
    /// Whether the clip could be seen at the last ``follow(_:)``: followed again when a slot
    /// frees or on a retry; coming into sight again after a failure tries once more.
    @ObservationIgnored private var wasInSight = false

    /// Makes a playback of `video` that wants no player until told what the views can see; its
    /// player takes one of `slots`.
    init(video: EncodedVideo, slots: VideoPlayerSlots = .shared) {
        self.video = video
        self.slots = slots
    }

    /// What the views show.
    public var state: State {
        if let error { return .failed(error) }
        return wantsPlayer && isReadyForDisplay ? .playing : .poster
    }

    /// A view's player has its first frame ready to draw (`AVPlayerLayer.isReadyForDisplay`).
    /// Ignored while no player is wanted (a late report of a player already let go).
    public func playerDidBecomeReady() {
        guard wantsPlayer, !isReadyForDisplay else { return }
        isReadyForDisplay = true
    }

    /// A view's player could not play the clip: players are let go and the poster stays until
    /// the clip comes into sight again or ``retry()``.
    public func playerDidFail(reason: String) {
        guard error == nil, wantsPlayer else { return }  // a late report of a player let go
        error = .decodingFailed(format: video.format, reason: reason)
        apply(wantsPlayer: false)
    }

    /// Tries a failed clip again now (nothing happens otherwise).
    public func retry() {
        guard error != nil else { return }
        error = nil
        update(inSight: wasInSight)
    }

    /// Follows the visibility policy of the model's animations: a player while the clip can be
    /// seen and a slot is free.
    func follow(_ visibility: PlaybackVisibility) {
        update(inSight: visibility.wantsVideoPlayer)
    }

    /// A player slot came free while this playback waited for one.
    func slotDidFree() {
        update(inSight: wasInSight)
    }

    private func update(inSight: Bool) {
        if inSight, !wasInSight, error != nil { error = nil }  // back in sight: try again
        wasInSight = inSight
        if inSight, error == nil, slots.claim(for: self) {
            apply(wantsPlayer: true)
        } else {
            if !inSight || error != nil { slots.release(self) }
            apply(wantsPlayer: false)
        }
    }

    /// The playback is no longer shown (another image replaced it): its slot goes.
    func end() {
        slots.release(self)
        wasInSight = false
        apply(wantsPlayer: false)
    }

    private func apply(wantsPlayer wanted: Bool) {
        guard wantsPlayer != wanted else { return }
        wantsPlayer = wanted
        if !wanted {
            if isReadyForDisplay { isReadyForDisplay = false }  // a new player shows the poster first
            slots.release(self)
        }
    }
}
