import Foundation

/// Whether a UIKit or AppKit view can be seen inside the views that clip it (its scroll views),
/// and its window: a view scrolled out of a scroll view keeps its window, so only this tells.
enum VisibleArea {
    /// Whether `frame` (the view's bounds in window coordinates) shows any of itself inside every
    /// rectangle of `clips` (the bounds of the ancestors that clip, and the window's, in window
    /// coordinates). An empty frame shows nothing.
    static func isVisible(frame: CGRect, clips: [CGRect]) -> Bool {
        var visible = frame.standardized
        guard visible.width > 0, visible.height > 0 else { return false }
        for clip in clips {
            visible = visible.intersection(clip.standardized)
            if visible.isNull || visible.width <= 0 || visible.height <= 0 { return false }
        }
        return true
    }
}
