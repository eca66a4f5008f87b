/// What one view's player shows of a clip (``VideoPlayback``): the decisions of
/// `VideoPlayerView`, which only reports AVFoundation's events here and applies the answers.
///
/// Each view has its own player, and shows it only once *its own* first frame is ready at the
/// poster's time; until then its poster shows. Readiness is per view, not per playback: a second
/// view showing the same model (`IrisImage(model:)`) while the first already plays keeps its
/// poster until its own player has a frame, never an empty (black) layer.
struct ClipPlayerSurface: Equatable {
    /// Whether the view has a player.
    private(set) var hasPlayer = false
    /// Whether the player stands at the poster's frame (no seek needed, or the seek ended).
    private(set) var isAtStart = false
    /// Whether the view's player layer has a frame to draw (`AVPlayerLayer.isReadyForDisplay`).
    private(set) var isLayerReady = false

    /// A new player was made; it seeks to the poster's frame first unless that is the start.
    mutating func playerMade(seeksToStart: Bool) {
        self = ClipPlayerSurface(hasPlayer: true, isAtStart: !seeksToStart, isLayerReady: false)
    }

    /// The seek to the poster's frame ended.
    mutating func seekDidReachStart() {
        guard hasPlayer else { return }
        isAtStart = true
    }

    /// The layer's readiness changed.
    mutating func layerReadinessDidChange(_ ready: Bool) {
        guard hasPlayer else { return }
        isLayerReady = ready
    }

    /// The player was let go.
    mutating func playerLetGo() {
        self = ClipPlayerSurface()
    }

    /// Whether the player may play: it stands where the poster is (playing before the seek ends
    /// would show frames from the clip's start).
    var plays: Bool { hasPlayer && isAtStart }

    /// Whether the view shows its player over the poster (and tells the playback it is ready).
    var showsPlayer: Bool { hasPlayer && isAtStart && isLayerReady }
}
