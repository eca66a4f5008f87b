import Iris
import Observation

/// The playing part of an ``ImageModel``: the animation player and the video playback of the
/// image shown, and the one visibility policy (``PlaybackVisibility``) that runs them.
///
/// The model hands it each phase it shows (`show(_:dataKey:clock:)`) and every report of the
/// views (``update(_:)``); it makes, plays, pauses and lets go of the players. Views read the
/// players through the model.
@MainActor @Observable
final class ModelPlayback {
    /// Plays the frames of a final image that has more than one (never a video's).
    private(set) var animationPlayer: AnimationPlayer?
    /// Plays the clip of a video shown.
    private(set) var videoPlayback: VideoPlayback?
    /// What the views reported, the switch, the app's state and the user's preferences.
    @ObservationIgnored private(set) var visibility = PlaybackVisibility()
    /// The data key of the source whose clip ``videoPlayback`` plays.
    @ObservationIgnored private var videoDataKey: String?
    /// The player slots clips take (``VideoPlayerSlots/shared`` unless a test gives its own).
    @ObservationIgnored var videoPlayerSlots = VideoPlayerSlots.shared

    /// Whether anything can play: a view needs to follow its scrolling (which moves it in and out
    /// of sight) only then, so a still image costs nothing per scrolled frame.
    var hasSomethingToPlay: Bool { animationPlayer != nil || videoPlayback != nil }

    /// Whether the animation runs now.
    var shouldPlayAnimation: Bool { visibility.shouldPlay }

    /// Makes, keeps or lets go of the players for `phase`, shown for the source of `dataKey`. A
    /// clip of the same source shown again (a larger decode of it) keeps its playback: the player
    /// goes on.
    func show(_ phase: ImagePhase, dataKey: () -> String?, clock: any Clock<Duration>) {
        showAnimation(of: phase, clock: clock)
        showVideo(of: phase, dataKey: dataKey)
    }

    /// Changes the visibility (a view's report, the switch, the app, the preferences), then plays
    /// or pauses to match.
    func update(_ change: (inout PlaybackVisibility) -> Void) {
        change(&visibility)
        apply()
    }

    /// Plays or pauses the animation to match the visibility; tells the video playback.
    private func apply() {
        videoPlayback?.follow(visibility)
        guard let animationPlayer else { return }
        if visibility.shouldPlay { animationPlayer.play() } else { animationPlayer.pause() }
    }

    private func showAnimation(of phase: ImagePhase, clock: any Clock<Duration>) {
        guard case .success(let image) = phase, image.video == nil, let animation = image.animation,
            animation.frameCount > 1
        else {
            animationPlayer?.pause()
            if animationPlayer != nil { animationPlayer = nil }
            return
        }
        animationPlayer?.pause()
        animationPlayer = AnimationPlayer(animation: animation, firstFrame: image.bitmap, clock: clock)
        apply()
    }

    private func showVideo(of phase: ImagePhase, dataKey: () -> String?) {
        guard let video = phase.loadedImage?.video else {
            if let videoPlayback {
                videoPlayback.end()
                self.videoPlayback = nil
            }
            return
        }
        let dataKey = dataKey()
        if let videoPlayback, dataKey != nil, dataKey == videoDataKey, videoPlayback.video.format == video.format { return }
        videoPlayback?.end()
        videoDataKey = dataKey
        let playback = VideoPlayback(video: video, slots: videoPlayerSlots)
        playback.follow(visibility)
        videoPlayback = playback
    }
}
