#if canImport(AVFoundation) && ((canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst)))
import AVFoundation
import Iris
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// Plays a video's clip in an `AVPlayerLayer` for ``IrisImageView`` and ``IrisImage``, as its
/// ``VideoPlayback`` says: a thin shell. It makes a player while the playback wants one (an
/// `AVQueuePlayer` looped by an `AVPlayerLooper`, muted, reading the bytes from memory through
/// `InMemoryVideoAsset`), plays it, shows itself once its own first frame is ready
/// (``ClipPlayerSurface``: the poster shows under it until then), and reports readiness and
/// failure back to the playback, which lets the player go on failure and asks again when the
/// clip comes back into sight.
///
/// The player is given a composition of the clip's video track alone, over the track's own time
/// range (a clip whose audio outlasts its video loops without an empty tail)
/// (``VideoPlayback/includesAudioTracks`` is false): with nothing to play through the audio
/// session it never activates it, so the user's music goes on, and the app's audio category is
/// never touched. It starts at the poster's frame (``VideoPlayback/startSeconds``), so a clip
/// that fades in from black goes on from the poster without a black flash. Its drawing never
/// leaves its bounds. Shown and hidden through the view's `isHidden` (never its backing
/// layer's, which AppKit owns).
@MainActor
final class VideoPlayerView: PlatformView {
    private var playback: VideoPlayback?
    private var asset: InMemoryVideoAsset?
    private var player: AVQueuePlayer?
    private var looper: AVPlayerLooper?
    private var observations: [NSKeyValueObservation] = []
    /// Builds the video-only item (AVFoundation loads the tracks asynchronously).
    private var preparation: Task<Void, Never>?
    /// What this view's player shows: its own readiness, not the playback's.
    private var surface = ClipPlayerSurface()

    /// Makes a view with no player.
    init() {
        super.init(frame: .zero)
        configure()
    }

    /// Made from a storyboard or nib.
    required init?(coder: NSCoder) {
        super.init(coder: coder)
        configure()
    }

    #if canImport(UIKit)
    /// The view's own layer is the player layer.
    override class var layerClass: AnyClass { AVPlayerLayer.self }

    private var playerLayer: AVPlayerLayer? { layer as? AVPlayerLayer }

    private func configure() {
        isUserInteractionEnabled = false
        autoresizingMask = [.flexibleWidth, .flexibleHeight]
        accessibilityElementsHidden = true
        clipsToBounds = true
        isHidden = true
    }
    #else
    /// The view's backing layer is the player layer.
    override func makeBackingLayer() -> CALayer { AVPlayerLayer() }

    private var playerLayer: AVPlayerLayer? { layer as? AVPlayerLayer }

    /// Clicks go to the views below.
    override func hitTest(_ point: NSPoint) -> NSView? { nil }

    private func configure() {
        wantsLayer = true
        autoresizingMask = [.width, .height]
        setAccessibilityElement(false)
        clipsToBounds = true
        isHidden = true
    }
    #endif

    /// Follows `playback` (`nil`: no video): makes or lets go of the player, plays it, shows its
    /// layer once it has a frame. `gravity` places the clip as the image is placed.
    func show(_ playback: VideoPlayback?, gravity: AVLayerVideoGravity) {
        guard let playback, playback.wantsPlayer else { return stop() }
        if playback !== self.playback || player == nil { start(playback) }
        guard let player, let playerLayer else { return }
        if playerLayer.videoGravity != gravity { playerLayer.videoGravity = gravity }
        player.isMuted = playback.isMuted
        if surface.plays { player.play() } else { player.pause() }
        isHidden = !surface.showsPlayer
    }

    /// Lets the player go: nothing plays, nothing is shown.
    func stop() {
        preparation?.cancel()
        preparation = nil
        surface.playerLetGo()
        observations = []
        player?.pause()
        looper?.disableLooping()
        looper = nil
        player = nil
        asset = nil
        playback = nil
        playerLayer?.player = nil
        isHidden = true
    }

    private func start(_ playback: VideoPlayback) {
        stop()
        self.playback = playback
        let asset: InMemoryVideoAsset
        do throws(ImageError) {
            asset = try InMemoryVideoAsset(playback.video)
        } catch {
            return playback.playerDidFail(reason: error.description)
        }
        self.asset = asset
        let player = AVQueuePlayer()
        player.isMuted = playback.isMuted
        #if os(visionOS)
        // A muted clip in a cell is never what the user is watching: the app may go to the
        // background as usual.
        player.preventsAutomaticBackgroundingDuringVideoPlayback = false
        #else
        player.preventsDisplaySleepDuringVideoPlayback = false
        #endif
        self.player = player
        surface.playerMade(seeksToStart: playback.startSeconds > 0)
        preparation = Task { [weak self] in
            let item: AVPlayerItem
            do {
                item = try await Self.videoOnlyItem(of: asset.asset, includingAudio: playback.includesAudioTracks)
            } catch {
                guard !Task.isCancelled else { return }
                self?.playback?.playerDidFail(reason: "AVFoundation could not read the clip: \(error.localizedDescription)")
                return
            }
            guard !Task.isCancelled, let self, self.player === player else { return }
            self.play(item, on: player, for: playback)
        }
    }

    /// A player item of `asset`'s video track alone, over the track's own time range (its
    /// transform kept), unless audio is wanted.
    private static func videoOnlyItem(of asset: AVURLAsset, includingAudio: Bool) async throws -> AVPlayerItem {
        if includingAudio { return AVPlayerItem(asset: asset) }
        let composition = AVMutableComposition()
        for track in try await asset.loadTracks(withMediaType: .video) {
            guard let copy = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid) else {
                continue
            }
            // The track's own range: the asset's duration is the longest track's, and an audio
            // track that outlasts the video would leave an empty tail (or fail the insert).
            let range = try await track.load(.timeRange)
            try copy.insertTimeRange(range, of: track, at: .zero)
            copy.preferredTransform = try await track.load(.preferredTransform)
        }
        return AVPlayerItem(asset: composition)
    }

    /// Loops `item` on `player`, seeks to the playback's start, and shows the layer once that
    /// frame is ready.
    private func play(_ item: AVPlayerItem, on player: AVQueuePlayer, for playback: VideoPlayback) {
        if playback.loops {
            let looper = AVPlayerLooper(player: player, templateItem: item)
            observations.append(
                looper.observe(\.status, options: [.new]) { @Sendable [weak self] _, _ in
                    Task { @MainActor in self?.statusDidChange() }
                })
            self.looper = looper
        } else {
            player.insert(item, after: nil)
        }
        observations.append(
            player.observe(\.currentItem?.status, options: [.new]) { @Sendable [weak self] _, _ in
                Task { @MainActor in self?.statusDidChange() }
            })
        if playback.startSeconds > 0 {
            let start = CMTime(seconds: playback.startSeconds, preferredTimescale: 600)
            player.seek(to: start, toleranceBefore: .zero, toleranceAfter: .zero) { @Sendable [weak self] _ in
                Task { @MainActor in self?.didReachStart() }
            }
        }
        if let playerLayer {
            observations.append(
                playerLayer.observe(\.isReadyForDisplay, options: [.initial, .new]) { @Sendable [weak self] _, _ in
                    Task { @MainActor in self?.readinessDidChange() }
                })
            playerLayer.player = player
        }
        if let current = self.playback { show(current, gravity: playerLayer?.videoGravity ?? .resizeAspect) }
    }

    /// The seek to the poster's frame ended: playing may begin, and the layer may show.
    private func didReachStart() {
        guard player != nil else { return }
        surface.seekDidReachStart()
        readinessDidChange()
    }

    /// The layer's readiness changed: this view shows its player once its own frame is ready.
    private func readinessDidChange() {
        guard let playback, let playerLayer, playerLayer.player != nil else { return }
        surface.layerReadinessDidChange(playerLayer.isReadyForDisplay)
        if surface.showsPlayer { playback.playerDidBecomeReady() }
        show(playback, gravity: playerLayer.videoGravity)
    }

    /// The looper or the item failed (an unreadable clip, an interruption, a media-services
    /// reset, no decoder free): the playback lets the player go and keeps the poster up.
    private func statusDidChange() {
        guard let playback else { return }
        if let looper, looper.status == .failed {
            playback.playerDidFail(reason: looper.error?.localizedDescription ?? "AVFoundation could not play the video")
        } else if let item = player?.currentItem, item.status == .failed {
            playback.playerDidFail(reason: item.error?.localizedDescription ?? "AVFoundation could not play the video")
        }
    }
}

extension ViewContentMode.ClipPlacement {
    /// The player layer's gravity for this placement.
    var videoGravity: AVLayerVideoGravity {
        switch self {
        case .fit: .resizeAspect
        case .fill: .resizeAspectFill
        case .stretch: .resize
        }
    }
}
#endif
