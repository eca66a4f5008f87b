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
/// `InMemoryVideoAsset`), plays or pauses it, shows its layer once the first frame is ready (the
/// poster shows under it until then), and reports readiness and failure back.
@MainActor
final class VideoPlayerView: PlatformView {
    private var playback: VideoPlayback?
    private var asset: InMemoryVideoAsset?
    private var player: AVQueuePlayer?
    private var looper: AVPlayerLooper?
    private var observations: [NSKeyValueObservation] = []

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
        playerLayer?.isHidden = true
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
        playerLayer?.isHidden = true
    }
    #endif

    /// Follows `playback` (`nil`: no video): makes or lets go of the player, plays or pauses it,
    /// shows its layer once it has a frame. `gravity` places the clip as the image is placed.
    func show(_ playback: VideoPlayback?, gravity: AVLayerVideoGravity) {
        guard let playback, playback.wantsPlayer else { return stop() }
        if playback !== self.playback || player == nil { start(playback) }
        guard let player, let playerLayer else { return }
        if playerLayer.videoGravity != gravity { playerLayer.videoGravity = gravity }
        player.isMuted = playback.isMuted
        if playback.isPlaying { player.play() } else { player.pause() }
        playerLayer.isHidden = !playback.showsPlayer
    }

    /// Lets the player go: nothing plays, nothing is shown.
    func stop() {
        observations = []
        player?.pause()
        looper?.disableLooping()
        looper = nil
        player = nil
        asset = nil
        playback = nil
        playerLayer?.player = nil
        playerLayer?.isHidden = true
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
        let player = AVQueuePlayer()
        player.isMuted = playback.isMuted
        player.preventsDisplaySleepDuringVideoPlayback = false
        let item = AVPlayerItem(asset: asset.asset)
        if playback.loops {
            let looper = AVPlayerLooper(player: player, templateItem: item)
            observations.append(looper.observe(\.status, options: [.new]) { @Sendable [weak self] _, _ in
                Task { @MainActor in self?.statusDidChange() }
            })
            self.looper = looper
        } else {
            player.insert(item, after: nil)
        }
        observations.append(player.observe(\.currentItem?.status, options: [.new]) { @Sendable [weak self] _, _ in
            Task { @MainActor in self?.statusDidChange() }
        })
        if let playerLayer {
            observations.append(playerLayer.observe(\.isReadyForDisplay, options: [.initial, .new]) { @Sendable [weak self] _, _ in
                Task { @MainActor in self?.readinessDidChange() }
            })
            playerLayer.player = player
        }
        self.asset = asset
        self.player = player
    }

    /// The first frame is ready: the playback decides to show the player.
    private func readinessDidChange() {
        guard let playback, let playerLayer, playerLayer.player != nil, playerLayer.isReadyForDisplay else { return }
        playback.playerDidBecomeReady()
    }

    /// The looper or the item failed: the playback keeps the poster up.
    private func statusDidChange() {
        guard let playback else { return }
        if let looper, looper.status == .failed {
            playback.playerDidFail(reason: looper.error?.localizedDescription ?? "AVFoundation could not play the video")
        } else if let item = player?.currentItem, item.status == .failed {
            playback.playerDidFail(reason: item.error?.localizedDescription ?? "AVFoundation could not play the video")
        }
    }
}

extension Iris.ContentMode? {
    /// How a clip is placed in a view showing its poster with this content mode: fitted for
    /// `.fit`, covering otherwise (a view that says nothing decodes to cover).
    var videoGravity: AVLayerVideoGravity {
        self == .fit ? .resizeAspect : .resizeAspectFill
    }
}
#endif
