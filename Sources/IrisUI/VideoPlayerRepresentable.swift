#if canImport(SwiftUI) && canImport(AVFoundation) && ((canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst)))
import AVFoundation
import SwiftUI

/// ``VideoPlayerView`` in SwiftUI: `playsVideo()` lays it over the image it modifies while a
/// clip plays. The playback's decisions are read in the body that makes it (so SwiftUI updates it
/// when they change) and handed to the view.
@MainActor
struct VideoPlayerRepresentable {
    let playback: VideoPlayback
    let gravity: AVLayerVideoGravity
    /// What the view follows, read from `playback` where this is made.
    let wantsPlayer: Bool
    let state: VideoPlayback.State

    init(_ playback: VideoPlayback, gravity: AVLayerVideoGravity) {
        self.playback = playback
        self.gravity = gravity
        wantsPlayer = playback.wantsPlayer
        state = playback.state
    }
}

#if canImport(UIKit)
extension VideoPlayerRepresentable: UIViewRepresentable {
    func makeUIView(context: Context) -> VideoPlayerView { VideoPlayerView() }

    func updateUIView(_ view: VideoPlayerView, context: Context) { view.show(playback, gravity: gravity) }

    static func dismantleUIView(_ view: VideoPlayerView, coordinator: Void) { view.stop() }
}
#else
extension VideoPlayerRepresentable: NSViewRepresentable {
    func makeNSView(context: Context) -> VideoPlayerView { VideoPlayerView() }

    func updateNSView(_ view: VideoPlayerView, context: Context) { view.show(playback, gravity: gravity) }

    static func dismantleNSView(_ view: VideoPlayerView, coordinator: Void) { view.stop() }
}
#endif
#endif
